//! The register file and the machine state that is not memory.

/// NMOS Z80 state. Registers are public: debuggers and test harnesses read and set them.
///
/// `repr(C)` with each pair's low byte first (F A, C B, E D, L H): a pair is then one
/// little-endian word in memory, so `set_hl` is one 16-bit store and `hl` one 16-bit load.
/// Were the bytes apart or H before L, a pair would be written as two byte stores and read
/// back as one word, which the host cannot forward from the store buffer (the load waits
/// for both stores to retire). In the batch loop every pair a handler writes is read from
/// memory by the next one that uses it (LDIR: HL, DE and BC every iteration).
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Cpu {
    pub f: u8,
    pub a: u8,
    pub c: u8,
    pub b: u8,
    pub e: u8,
    pub d: u8,
    pub l: u8,
    pub h: u8,
    /// Shadow pairs AF', BC', DE', HL'.
    pub af_: u16,
    pub bc_: u16,
    pub de_: u16,
    pub hl_: u16,
    pub ix: u16,
    pub iy: u16,
    pub sp: u16,
    pub pc: u16,
    /// MEMPTR, the hidden internal address register.
    pub wz: u16,
    pub i: u8,
    /// Refresh register: low 7 bits count M1 cycles, bit 7 is kept as loaded. Up to date
    /// between instructions (while one runs, the executor counts the M1 cycles apart).
    pub r: u8,
    pub iff1: bool,
    pub iff2: bool,
    /// Interrupt mode 0, 1 or 2.
    pub im: u8,
    /// Halted: executing NOP M1 cycles at `pc` (which already points past the HALT).
    pub halted: bool,
    /// The F value written by the last instruction, 0 if it wrote none (the "Q" latch).
    pub q: u8,
    /// The last instruction was EI: maskable interrupts are not accepted before the next one.
    pub ei: bool,
    /// The last instruction was LD A,I or LD A,R (an interrupt accepted now resets P/V).
    pub p: bool,
    /// Level of the /INT line (true = asserted).
    pub int_line: bool,
    /// An NMI edge has been seen and not yet accepted.
    pub nmi_pending: bool,
    /// Running T-state counter.
    pub t: u64,
    /// Q as it was when the last HALT began (the CP/M frame takes its trap's HALT back with
    /// it); inside an instruction SCF/CCF get it as an argument.
    pub(crate) prev_q: u8,
    /// M1 cycles a chain of the batch loop's handlers ran and R has not counted yet (the
    /// chain carries them in its PC register and leaves them here when it ends); 0 outside
    /// the batch loop.
    pub(crate) m1: u8,
    /// The address of the last instruction a chain of the batch loop's handlers ran; 0
    /// outside it.
    pub(crate) last: u16,
    /// A chain of the batch loop's handlers ends when the counter reaches it: the limit of
    /// [`Cpu::run`] or the chain's own end, whichever is first, lowered to 0 by HALT, EI and
    /// LD A,I/R (whose latches matter only at the batch's end). 0 outside the batch loop.
    pub(crate) end: u64,
    /// Where the batch loop's chain keeps Q without a store per instruction: the
    /// counter at the end of the last chained instruction that wrote F (Q is then F), and
    /// the counter at the chain's first instruction (or at the instruction after a DD/FD
    /// prefix), before which Q is `q`. 0 outside the batch loop.
    pub(crate) q_at: u64,
    pub(crate) q_from: u64,
}

/// Each pair's high byte directly follows its low byte, which [`Cpu::pair`] relies on.
const PAIRS_ARE_WORDS: () = {
    use std::mem::offset_of;
    assert!(offset_of!(Cpu, a) == offset_of!(Cpu, f) + 1);
    assert!(offset_of!(Cpu, b) == offset_of!(Cpu, c) + 1);
    assert!(offset_of!(Cpu, d) == offset_of!(Cpu, e) + 1);
    assert!(offset_of!(Cpu, h) == offset_of!(Cpu, l) + 1);
    // Each pair's word is aligned (`pair` reads it as one aligned, volatile load).
    assert!(offset_of!(Cpu, f) % 2 == 0 && offset_of!(Cpu, c) % 2 == 0);
    assert!(offset_of!(Cpu, e) % 2 == 0 && offset_of!(Cpu, l) % 2 == 0);
    assert!(std::mem::align_of::<Cpu>() >= 2);
};

/// Reads a 16-bit register as exactly one 16-bit load.
///
/// LLVM widens a plain `u16` field load whose value only feeds 32-bit arithmetic into a
/// 32-bit load (`mov 0x14(%rdi),%ecx` for SP: it may, the bytes after SP are PC, inside
/// `*self`). In the batch loop the last instruction stored that register as 16 bits a few
/// host instructions earlier, and a load wider than the store it overlaps cannot be forwarded
/// from the store buffer: it waits for the store to retire (perf on zexdoc put 58% of
/// PUSH's samples on that load; `benches/README.md`, "The emulator and the period builds").
/// A volatile load keeps its width.
#[inline(always)]
pub(crate) fn load16(r: &u16) -> u16 {
    // SAFETY: a reference is valid and aligned for a read.
    unsafe { std::ptr::read_volatile(r) }
}

impl Default for Cpu {
    fn default() -> Self {
        Self::new()
    }
}

impl Cpu {
    /// The state after /RESET: PC, I, R = 0, interrupts disabled, IM 0; AF and SP = FFFF.
    pub fn new() -> Self {
        Cpu {
            a: 0xFF,
            f: 0xFF,
            b: 0,
            c: 0,
            d: 0,
            e: 0,
            h: 0,
            l: 0,
            af_: 0xFFFF,
            bc_: 0,
            de_: 0,
            hl_: 0,
            ix: 0,
            iy: 0,
            sp: 0xFFFF,
            pc: 0,
            wz: 0,
            i: 0,
            r: 0,
            iff1: false,
            iff2: false,
            im: 0,
            halted: false,
            q: 0,
            ei: false,
            p: false,
            int_line: false,
            nmi_pending: false,
            t: 0,
            prev_q: 0,
            end: 0,
            m1: 0,
            last: 0,
            q_at: 0,
            q_from: 0,
        }
    }

    /// Reset as the /RESET pin does (the counter keeps running).
    pub fn reset(&mut self) {
        let t = self.t;
        *self = Cpu::new();
        self.t = t;
    }

    /// Reads the pair whose low byte is at `lo` (a field offset in `Cpu`) as one
    /// little-endian word. LLVM does not always merge the two byte loads of
    /// `(h as u16) << 8 | l as u16` into one, and the batch loop reads HL on almost every
    /// memory instruction: one load instead of two and a shift-or measured +15–20% on the
    /// `LD (HL),A` stream of `cargo bench --bench emulator`.
    #[inline(always)]
    fn pair(&self, lo: usize) -> u16 {
        let () = PAIRS_ARE_WORDS;
        debug_assert!(lo + 2 <= std::mem::size_of::<Cpu>());
        // SAFETY: `lo` is one of the four field offsets asserted in `PAIRS_ARE_WORDS`, so
        // `lo` and `lo + 1` are the pair's two `u8` fields inside `*self`, `lo` is even (the
        // assertion checks it) in an 8-aligned struct, and any bit pattern is a valid `u16`.
        // Volatile for its width (see [`load16`]).
        let word = unsafe {
            (self as *const Cpu)
                .cast::<u8>()
                .add(lo)
                .cast::<u16>()
                .read_volatile()
        };
        u16::from_le(word)
    }
    /// Writes the pair whose low byte is at `lo` as one word (see [`Cpu::pair`]).
    ///
    /// As a 2-byte array, not `write_unaligned`: with debug assertions on (`cargo test`'s
    /// profile) the standard library builds `write_unaligned` on a copy from a stack
    /// temporary whose address its overlap check takes, and a handler with an escaped
    /// temporary cannot end in a jump: 135 handlers called the next one instead, so the
    /// chain nested hundreds of frames deep and their returns missed the return predictor.
    #[inline(always)]
    fn set_pair(&mut self, lo: usize, v: u16) {
        let () = PAIRS_ARE_WORDS;
        debug_assert!(lo + 2 <= std::mem::size_of::<Cpu>());
        // SAFETY: as in `pair`; `&mut self` makes the two bytes ours to write, and a
        // `[u8; 2]` needs no alignment.
        unsafe {
            (self as *mut Cpu)
                .cast::<u8>()
                .add(lo)
                .cast::<[u8; 2]>()
                .write(v.to_le_bytes())
        }
    }

    #[inline(always)]
    pub fn af(&self) -> u16 {
        self.pair(std::mem::offset_of!(Cpu, f))
    }
    #[inline(always)]
    pub fn bc(&self) -> u16 {
        self.pair(std::mem::offset_of!(Cpu, c))
    }
    #[inline(always)]
    pub fn de(&self) -> u16 {
        self.pair(std::mem::offset_of!(Cpu, e))
    }
    #[inline(always)]
    pub fn hl(&self) -> u16 {
        self.pair(std::mem::offset_of!(Cpu, l))
    }
    #[inline(always)]
    pub fn set_af(&mut self, v: u16) {
        self.set_pair(std::mem::offset_of!(Cpu, f), v)
    }
    #[inline(always)]
    pub fn set_bc(&mut self, v: u16) {
        self.set_pair(std::mem::offset_of!(Cpu, c), v)
    }
    #[inline(always)]
    pub fn set_de(&mut self, v: u16) {
        self.set_pair(std::mem::offset_of!(Cpu, e), v)
    }
    #[inline(always)]
    pub fn set_hl(&mut self, v: u16) {
        self.set_pair(std::mem::offset_of!(Cpu, l), v)
    }
}
