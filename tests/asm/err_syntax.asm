; Syntax errors: every one is reported, with its column.
        ld a,0FGh               ; error: 14: error: bad number '0FGh'
        ld a,%102               ; error: bad number '%102'
        ld a,`                  ; error: unexpected character '`'
        frob a,b                ; error: 9: error: unknown instruction or directive 'frob'
        ld b,(5)                ; error: no form of LD takes these operands: 'ld b,(5)' (parentheses mean a memory operand
        ld hl,(ix+1)            ; error: no form of LD takes these operands
        ex de,ix                ; error: no form of EX
        push a                  ; error: no form of PUSH
        nop 1                   ; error: no form of NOP
        ld a                    ; error: no form of LD
        ld a,                   ; error: missing operand after ','
        ld ,a                   ; error: missing operand before ','
        ld a,(b)                ; error: '(b)' is not an addressing mode
        ld a,b+1                ; error: register or condition 'b' cannot be used in an expression
        ld a,()                 ; error: empty parentheses
        ld a,(1+2               ; error: '(' without ')'
        ld a,1+2)               ; error: ')' without '('
        ld a,1 2                ; error: unexpected '2' in expression
        ld a,'ab'               ; error: 'ab' in an expression must be one character
        ld a,1+                 ; error: expression ends too early
hl:     nop                     ; error: 'hl' is a register or condition name and cannot be a symbol
        equ 5                   ; error: EQU needs a name
X       equ                     ; error: EQU needs a value
mac     macro                   ; error: MACRO (macros) is not supported
        endm                    ; error: ENDM (macros) is not supported
        if 1
        else junk               ; error: unexpected 'junk' after else
        endif
        db                      ; error: DB needs at least one value
        ds 1,2,3                ; error: DS takes a count and an optional fill byte
        ifdef                   ; error: IFDEF needs one symbol name
        endif
        org                     ; error: ORG needs a value
        , nop                   ; error: expected an instruction or directive, found ', nop'
        ld a,----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------1 ; error: expression too deeply nested
        db "abc ; the string swallows the comment, so the expectation is on the next line
; error(err_syntax.asm:37): unterminated string
