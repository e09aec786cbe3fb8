//! Loss models on a link direction.
//!
//! A loss model drops packets at the far end of the link, after they have used the line
//! and crossed the propagation delay, as ns-2's `link-lossmodel` (which places the error
//! module after the link's delay) and ns-3's receive error models do. Its drops are counted
//! apart from the queue's.

pub mod bernoulli;
pub mod drop_list;
pub mod gilbert_elliott;
pub mod periodic;

pub use bernoulli::Bernoulli;
pub use drop_list::DropList;
pub use gilbert_elliott::GilbertElliott;
pub use periodic::Periodic;

use crate::packet::Packet;

#[derive(Clone, Debug)]
pub enum AnyLoss {
    Bernoulli(Bernoulli),
    DropList(DropList),
    GilbertElliott(GilbertElliott),
    Periodic(Periodic),
}

impl AnyLoss {
    /// Whether `pkt` is lost.
    #[inline]
    pub fn drops(&mut self, pkt: &Packet) -> bool {
        match self {
            AnyLoss::Bernoulli(m) => m.drops(pkt),
            AnyLoss::DropList(m) => m.drops(pkt),
            AnyLoss::GilbertElliott(m) => m.drops(pkt),
            AnyLoss::Periodic(m) => m.drops(pkt),
        }
    }

    /// Where a random model's uniform numbers come from (Bernoulli's; the others draw
    /// nothing ns-2 draws from its default generator).
    pub fn random(&mut self) -> Option<&mut crate::rng::Uniform> {
        match self {
            AnyLoss::Bernoulli(m) => Some(m.random()),
            _ => None,
        }
    }
}
