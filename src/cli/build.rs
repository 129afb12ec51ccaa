//! How command lines name a firmware build: clap's `ValueEnum` for [`Build`], implemented here
//! so that `firmware` knows nothing of clap. `--build` takes `article`, `1978` or `full`, and
//! clap's error for anything else lists them.

use crate::firmware::Build;
use clap::builder::PossibleValue;

impl clap::ValueEnum for Build {
    fn value_variants<'a>() -> &'a [Self] {
        &Build::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.about()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn the_names_are_the_roms_and_from_str_agrees() {
        for b in Build::ALL {
            assert_eq!(Build::from_str(b.name(), false), Ok(b));
            assert_eq!(b.name().parse::<Build>(), Ok(b));
        }
        assert!(Build::from_str("b1978", true).is_err());
        let e = "b1978".parse::<Build>().unwrap_err().to_string();
        assert!(e.contains("'b1978'") && e.contains("1978"), "{e}");
    }
}
