//! `z80chess disasm`: disassemble a binary image.

use super::CliError;
use std::path::PathBuf;

/// `z80chess disasm`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The image.
    pub image: PathBuf,
    /// Address of the image's first byte.
    #[arg(long, default_value = "0", value_parser = parse_addr)]
    pub org: u16,
    /// Symbol file to label addresses with.
    #[arg(long)]
    pub sym: Option<PathBuf>,
    /// A banked image (base 16 KiB, then 16 KiB pages): list this expansion page at 8000h.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
    pub page: Option<u8>,
}

/// Run `z80chess disasm`: an unreadable image or symbol file is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    super::readable(&a.image)?;
    crate::disasm::cli(&a.image, a.org, a.sym.as_deref(), a.page).map_err(CliError::Input)
}

fn parse_addr(s: &str) -> Result<u16, String> {
    let t = s.trim();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(h) = t.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = t.strip_suffix('h').or_else(|| t.strip_suffix('H')) {
        (h, 16)
    } else {
        (t, 10)
    };
    u16::from_str_radix(digits, radix).map_err(|_| format!("'{s}' is not an address 0..=0xFFFF"))
}
