//! placeholder
#[derive(clap::Args, Debug)]
pub struct EndgameTestArgs {}
pub fn cli(_a: &EndgameTestArgs) -> Result<(), String> {
    Ok(())
}
