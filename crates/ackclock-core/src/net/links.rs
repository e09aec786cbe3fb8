//! A run's links, fixed in number once built, and [`HopLink`]: the index of one of them that
//! a packet-hop uses without a bounds check.
//!
//! Every hop indexes the links twice (the link it leaves in `Simulator::on_link_head`, the one
//! it enters in `Simulator::enter_link`); with `Vec<Link>` and a plain `LinkId` each index
//! was a load of the length, a compare and a branch (issue 31's line profile: the checked
//! indexes of a hop about 39 instructions with their address arithmetic, a sixth of it
//! these two). A `HopLink` is checked once, where it is made, and carries that proof to
//! every later use: the links' own ids are validated when the paths are built and when a
//! table's answer or another id becomes a `HopLink` ([`Links::hop`]).

use super::Link;
use crate::ids::LinkId;
use std::ops::{Deref, DerefMut};

/// The index of a link of the run, known to be in bounds: made only by [`Links::hop`] and
/// [`Links::hop_of`] (checked against the links' number) and by
/// [`super::SourceRoutes::link`], whose entries `SourceRoutes::build` took from the links it
/// was given (each one indexed them, checked). The field is private to `net`, so no other
/// code can make one from a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopLink(pub(super) u32);

impl HopLink {
    /// The link's id.
    #[inline(always)]
    pub fn id(self) -> LinkId {
        LinkId(self.0)
    }
}

/// The run's links, indexed by [`LinkId`] (checked, as a slice) or by [`HopLink`] (not).
/// A boxed slice: nothing can add or remove a link once the run is built, so a `HopLink`
/// checked against the links' number stays in bounds for the whole run.
#[derive(Debug, Default)]
pub struct Links(Box<[Link]>);

impl Links {
    pub fn new(links: Vec<Link>) -> Links {
        Links(links.into_boxed_slice())
    }

    /// `l` as a [`HopLink`], if it is a link of the run (a table's `NO_ROUTE` is not).
    #[inline(always)]
    pub fn hop(&self, l: LinkId) -> Option<HopLink> {
        (l.idx() < self.0.len()).then_some(HopLink(l.0))
    }

    /// `l`, a link the caller has just used, as a [`HopLink`].
    pub fn hop_of(&self, l: LinkId) -> HopLink {
        self.hop(l).expect("a link id of this run")
    }

    /// The link `l`, without a bounds check.
    #[inline(always)]
    pub fn at(&mut self, l: HopLink) -> &mut Link {
        debug_assert!((l.0 as usize) < self.0.len());
        // SAFETY: `l.0 < self.0.len()`. A `HopLink` is made only by `hop` (which compares it
        // with this length), by `hop_of` (through `hop`) and by `SourceRoutes::link` from an
        // entry `SourceRoutes::build` copied from a `Routes` answer after indexing the links
        // slice it was given with it (checked). The simulator builds its paths only from its
        // own `Links` and keeps `HopLink`s only in its own event queue and locals, so every
        // `HopLink` it meets was checked against this length; and the length never changes
        // (a boxed slice, no method here resizes it).
        unsafe { self.0.get_unchecked_mut(l.0 as usize) }
    }
}

impl Deref for Links {
    type Target = [Link];

    #[inline(always)]
    fn deref(&self) -> &[Link] {
        &self.0
    }
}

impl DerefMut for Links {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Link] {
        &mut self.0
    }
}

impl<'a> IntoIterator for &'a Links {
    type Item = &'a Link;
    type IntoIter = std::slice::Iter<'a, Link>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Links {
    type Item = &'a mut Link;
    type IntoIter = std::slice::IterMut<'a, Link>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_of_the_runs_links_become_hop_links() {
        let links = Links::new(vec![
            crate::fixtures::bare_link(0, 1, 1e9),
            crate::fixtures::bare_link(1, 0, 1e9),
        ]);
        assert_eq!(links.hop(LinkId(1)).map(HopLink::id), Some(LinkId(1)));
        assert_eq!(links.hop(LinkId(2)), None);
        assert_eq!(links.hop(crate::net::routing::NO_ROUTE), None);
    }
}
