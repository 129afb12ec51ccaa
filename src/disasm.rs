//! The disassembler. OWNER: isa/disassembler helper (being written).
use std::path::Path;

/// `z80chess disasm`.
pub fn cli(_image: &Path, _org: u16, _sym: Option<&Path>) -> Result<(), String> {
    Err("the disassembler is not written yet".into())
}
