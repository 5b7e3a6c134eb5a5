//! Frames handed to the pose request as shared data without allocating each time: two buffers
//! used in turn. A request holds the buffer it was given until the next frame's request
//! replaces it, so the buffer handed out before last is free again by the time it is refilled
//! (`Arc::make_mut` copies it only if something still holds it).

use std::sync::Arc;

/// Two shared buffers handed out in turn: see the module's documentation.
#[derive(Clone, Debug)]
pub struct Handoff<T> {
    slots: [Option<Arc<T>>; 2],
    next: usize,
}

impl<T> Default for Handoff<T> {
    fn default() -> Self {
        Self {
            slots: [None, None],
            next: 0,
        }
    }
}

impl<T: Clone> Handoff<T> {
    /// The buffer to fill next (made by `make` the first time), writable.
    pub fn next_mut(&mut self, make: impl FnOnce() -> T) -> &mut T {
        let slot = self.slots[self.next].get_or_insert_with(|| Arc::new(make()));
        Arc::make_mut(slot)
    }

    /// The buffer just filled, shared; the next `next_mut` fills the other one.
    pub fn hand_out(&mut self) -> Option<Arc<T>> {
        let out = self.slots[self.next].clone();
        self.next ^= 1;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_no_longer_held_is_refilled_in_place() {
        let mut h = Handoff::default();
        *h.next_mut(|| 0) = 1;
        let first = h.hand_out().unwrap();
        *h.next_mut(|| 0) = 2;
        let second = h.hand_out().unwrap();
        let at = Arc::as_ptr(&first);
        drop(first);
        // The first buffer is free again: filled where it was, not copied.
        *h.next_mut(|| 0) = 3;
        let third = h.hand_out().unwrap();
        assert_eq!((Arc::as_ptr(&third), *third, *second), (at, 3, 2));
        // Still held: copied, the holder's value kept.
        *h.next_mut(|| 0) = 4;
        assert_eq!((*second, *h.hand_out().unwrap()), (2, 4));
    }
}
