; banking.asm: code and data in two expansion pages of the full build's machine, reached
; through the 8000h window (tests/executor/banking.rs). Every instruction runs exactly once, so the
; run's T-states are the sum of the listing's; the clock port is read first and last.
PPAGE   EQU     04h             ; OUT: select the window's page; IN: the selection
PCLK    EQU     06h             ; IN: latch the T-state counter, bits 0-7 (07h-0Bh: bytes 1-5)
PEXIT   EQU     0FFh
XRAM    EQU     0C000h          ; expansion RAM
CLK1    EQU     4000h           ; the first latch, 6 bytes
CLK2    EQU     4006h           ; the last latch's low word

        ORG     0
START:  IN      A,(PCLK)        ; latched at T = 7 (the IN's I/O cycle)
        LD      (CLK1),A
        IN      A,(PCLK+1)
        LD      (CLK1+1),A
        IN      A,(PCLK+2)
        LD      (CLK1+2),A
        IN      A,(PCLK+3)
        LD      (CLK1+3),A
        IN      A,(PCLK+4)
        LD      (CLK1+4),A
        IN      A,(PCLK+5)
        LD      (CLK1+5),A
        LD      SP,6000h
        CALL    P0MAIN          ; page 0 is selected at reset: B = its data, XRAM[0] = B
        LD      A,PAGEOF(P1MAIN)
        OUT     (PPAGE),A
        CALL    P1MAIN          ; the same address in page 1: C, D, E, XRAM[1..2]
        LD      A,(6000h)       ; 6000h-7FFFh: expansion RAM, zero at power-on
        LD      (XRAM+3),A
        LD      A,3             ; page 3 is not fitted: the window reads FFh
        OUT     (PPAGE),A
        LD      A,(8000h)
        LD      (XRAM+4),A
        XOR     A
        OUT     (PPAGE),A
        LD      A,(P0DATA)      ; page 0 again
        LD      (XRAM+5),A
        LD      A,1
        OUT     (PPAGE),A       ; end with page 1 selected
        IN      A,(PCLK)        ; the last latch: the run's T-states less 50 (this line's
        LD      L,A             ; last 4 and the 46 below)
        IN      A,(PCLK+1)
        LD      H,A
        LD      (CLK2),HL
        OUT     (PEXIT),A

; FAR0: call page 0's P0TWICE from page 1 and come back to page 1.
FAR0:   XOR     A
        OUT     (PPAGE),A
        CALL    P0TWICE
        LD      A,PAGEOF(P1MAIN)
        OUT     (PPAGE),A
        RET

        PAGE    0
P0MAIN: LD      A,(P0DATA)
        LD      B,A
        LD      (XRAM),A
        RET
P0TWICE:                        ; E = 2E
        LD      A,E
        ADD     A,A
        LD      E,A
        RET
        ORG     8100h
P0DATA: DB      11h

        PAGE    1
P1MAIN: LD      A,(P1DATA)      ; the same address as P0MAIN
        LD      C,A
        LD      HL,XRAM
        ADD     A,(HL)          ; + page 0's byte, left in the expansion RAM
        LD      (XRAM+1),A
        IN      A,(PPAGE)
        LD      D,A
        LD      E,21h
        CALL    FAR0            ; through the base to page 0 and back
        LD      A,E
        LD      (XRAM+2),A
        RET
        ORG     8100h
P1DATA: DB      22h
        ENDPAGE
