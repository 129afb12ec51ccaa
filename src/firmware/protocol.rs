//! The port protocol's command bytes and error codes, mirroring `asm/io.asm`
//! (a test reads the firmware's symbol file and checks every value here).

pub const CMD_IDENT: u8 = b'I';
pub const CMD_NEW: u8 = b'N';
pub const CMD_SETUP: u8 = b'S';
pub const CMD_BOARD: u8 = b'B';
pub const CMD_LIST: u8 = b'L';
pub const CMD_STATUS: u8 = b'K';
pub const CMD_MOVE: u8 = b'M';
pub const CMD_UNDO: u8 = b'U';
pub const CMD_PERFT: u8 = b'P';
pub const CMD_ATTACK: u8 = b'A';
pub const CMD_XCHNG: u8 = b'X';
pub const CMD_XARRAY: u8 = b'Y';
pub const CMD_MOVENO: u8 = b'O';
/// Full build: the halfmove clock of the position set up (`asm/draw.asm`).
pub const CMD_HALFMOVE: u8 = b'H';
/// Full build: the time for the next timed search (`asm/time.asm`).
pub const CMD_TIME: u8 = b'T';
pub const CMD_SEARCH: u8 = b'G';
/// Full build: the root moves the next searches of this position consider
/// (`searchmoves`, `asm/roots.asm`): n, then n × (from, to, promo); n = 0 lifts the set.
pub const CMD_ROOTS: u8 = b'R';

/// Every command the firmware serves: (byte, its handler's label in `asm/`, only in the
/// full build). A test reads each ROM's command table (`CMDTAB` in `asm/io.asm`) and checks
/// it holds exactly these.
pub const COMMANDS: &[(u8, &str, bool)] = &[
    (CMD_IDENT, "CIDENT", false),
    (CMD_NEW, "CNEW", false),
    (CMD_SETUP, "CSETUP", false),
    (CMD_BOARD, "CBOARD", false),
    (CMD_LIST, "CLIST", false),
    (CMD_STATUS, "CSTAT", false),
    (CMD_MOVE, "CMOVE", false),
    (CMD_UNDO, "CUNDO", false),
    (CMD_PERFT, "CPERFT", false),
    (CMD_ATTACK, "CATTK", false),
    (CMD_XCHNG, "CXCHG", false),
    (CMD_XARRAY, "CXARR", false),
    (CMD_MOVENO, "CMOVNO", false),
    (CMD_SEARCH, "CSRCH", false),
    (super::eval::CMD_EVAL, "CEVAL", false),
    (super::params::CMD_PWRITE, "CPARW", true),
    (super::params::CMD_PREAD, "CPARV", true),
    (CMD_HALFMOVE, "CHALF", true),
    (CMD_TIME, "CTIME", true),
    (CMD_ROOTS, "CROOT", true),
];

/// (code, symbol in io.asm, meaning)
pub const ERRORS: &[(u8, &str, &str)] = &[
    (
        0x01,
        "ENOMOVE",
        "the move is not one of the position's moves",
    ),
    (
        0x02,
        "EINCHK",
        "the move would leave the mover's king in check",
    ),
    (0x03, "EHFULL", "the game history is full"),
    (0x04, "ENOUNDO", "nothing to take back"),
    (0x05, "EPIECE", "set-up: a byte is not a piece"),
    (0x06, "EKINGS", "set-up: not exactly one king per side"),
    (0x07, "EPAWN", "set-up: a pawn on the first or last rank"),
    (0x08, "EEPSQ", "set-up: impossible en-passant square"),
    (0x09, "ECHECK", "set-up: the side not to move is in check"),
    (
        0x0A,
        "EDEPTH",
        "perft: depth beyond the firmware's limit (PMAXD)",
    ),
    (
        0x0B,
        "EOVFLW",
        "a move list overflowed MLIST or the stack reached its limit",
    ),
    (0x0D, "ESQUARE", "not a square of the board"),
    (
        0x0E,
        "ENOLEGL",
        "search: the side to move has no legal move",
    ),
    (
        0x10,
        "EBADPRM",
        "parameters: a block or range outside the blocks (full build)",
    ),
    (0xFF, "EUNKNWN", "unknown command"),
];

/// The meaning of a firmware error code.
pub fn error_text(code: u8) -> &'static str {
    ERRORS
        .iter()
        .find(|e| e.0 == code)
        .map(|e| e.2)
        .unwrap_or("an error code the host does not know")
}
