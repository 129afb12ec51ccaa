//! The interpreter (being written).
use super::bus::Bus;
use super::cpu::Cpu;

impl Cpu {
    /// Execute one instruction (all its prefixes) or accept one pending interrupt.
    pub fn step<B: Bus>(&mut self, _bus: &mut B) {
        todo!("exec being written")
    }
}
