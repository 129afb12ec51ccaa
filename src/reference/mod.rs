//! Host-side references for the exchange evaluator, written from the documents (the BYTE
//! article and its XCHNG/NEXTAD listing, the published 1978 program's ATTACK and POINTS, the filling
//! rules documented in `asm/attack.asm`, the chessprogramming wiki's SEE), never from the Z80
//! code. They check and explain the firmware's answers; the engine never uses them.
//!
//! - [`xchng`]: the listing's XCHNG/NEXTAD on a 14-byte array, with the residue trace.
//! - [`attack`]: ATTACK (evaluation mode), ATKSAV (both filling rules), PNCK, PINFND.
//! - [`see`]: the textbook swap SEE on shakmaty boards.
//! - [`compare`]: from XCHNG's residue to the textbook value, one documented difference at a
//!   time.

pub mod attack;
pub mod compare;
pub mod race;
pub mod see;
pub mod xchng;
