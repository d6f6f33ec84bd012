//! Circuit breakers: counts that stop a run going round in circles. Each trip names the
//! breaker with its count and limit; the run then escalates rather than loop on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use statewright_workflow::Breakers as Limits;

use crate::driver::Signals;

/// A breaker that tripped.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Trip {
    pub breaker: &'static str,
    pub count: u32,
    pub limit: u32,
}

/// What `same_target` compares: the action, and the page element it acted on.
type TargetKey = ((usize, usize), Option<String>);

/// The longest cycle of states looked for (A → B → C → A …).
const MAX_PERIOD: usize = 4;

pub(crate) struct Breakers {
    limits: Limits,
    entries: HashMap<usize, u32>,
    attempts: HashMap<(usize, usize), u32>,
    /// The element acted on last (state, action index, and the page element when the
    /// driver can tell), and how many times in a row.
    last_target: Option<(TargetKey, u32)>,
    /// States entered since the run last reached a state it had not seen before.
    since_progress: Vec<usize>,
    seen: Vec<bool>,
    failures: u32,
}

impl Breakers {
    pub fn new(limits: &Limits, states: usize) -> Self {
        Self {
            limits: limits.clone(),
            entries: HashMap::new(),
            attempts: HashMap::new(),
            last_target: None,
            since_progress: Vec::new(),
            seen: vec![false; states],
            failures: 0,
        }
    }

    /// A state was added to the workflow during the run.
    pub fn state_added(&mut self, at: usize) {
        self.seen.insert(at, false);
    }

    /// Counts an entry of `state`. Interrupts count toward their own entries only: a popup
    /// that keeps coming back is a loop, but it is no step back for the task.
    pub fn entered(&mut self, state: usize, interrupt: bool) -> Option<Trip> {
        let entries = self.entries.entry(state).or_default();
        *entries += 1;
        let entries = *entries;
        if interrupt {
            return trip("state_entries", entries, self.limits.state_entries);
        }
        if !self.seen[state] {
            self.seen[state] = true;
            self.since_progress.clear();
            self.last_target = None;
        }
        self.since_progress.push(state);
        trip("state_entries", entries, self.limits.state_entries).or_else(|| self.cycle())
    }

    /// Counts one performed action of `state`. `element` is `Some` when the action acts on
    /// an element, with that element's identity when the driver knows it. Acting again
    /// counts as a repetition only on the same element (a button made anew each round is
    /// another one) while the page did not change since (`page_changed`): progress is not
    /// a loop.
    pub fn acted(
        &mut self,
        state: usize,
        index: usize,
        element: Option<Option<&str>>,
        page_changed: bool,
    ) -> Option<Trip> {
        let attempts = self.attempts.entry((state, index)).or_default();
        *attempts += 1;
        let attempts = *attempts;
        if let Some(element) = element {
            let key: TargetKey = ((state, index), element.map(str::to_owned));
            let in_a_row = match &self.last_target {
                Some((last, n)) if *last == key && !page_changed => n + 1,
                _ => 1,
            };
            self.last_target = Some((key, in_a_row));
            if let Some(trip) = trip("same_target", in_a_row, self.limits.same_target) {
                return Some(trip);
            }
        }
        trip("action_attempts", attempts, self.limits.action_attempts)
    }

    /// A failure (unverified state, failed action); `Some` when failures in a row reached
    /// the limit, so retries are skipped.
    pub fn failed(&mut self) -> Option<Trip> {
        self.failures += 1;
        (self.failures >= self.limits.consecutive_failures).then_some(Trip {
            breaker: "consecutive_failures",
            count: self.failures,
            limit: self.limits.consecutive_failures,
        })
    }

    /// The run moved on as expected.
    pub fn verified(&mut self) {
        self.failures = 0;
    }

    /// A person resolved a trip or a failure: counting starts again for what they fixed.
    pub fn reset(&mut self, state: Option<usize>) {
        if let Some(state) = state {
            self.entries.remove(&state);
            self.attempts.retain(|(s, _), _| *s != state);
        }
        self.last_target = None;
        self.since_progress.clear();
        self.failures = 0;
    }

    /// The most repetitions of one cycle at the end of the entries since progress.
    fn cycle(&self) -> Option<Trip> {
        let history = &self.since_progress;
        for period in 2..=MAX_PERIOD {
            let pattern = match history.len().checked_sub(period) {
                Some(start) => &history[start..],
                None => break,
            };
            // A cycle visits at least two different states.
            if pattern.iter().all(|&s| s == pattern[0]) {
                continue;
            }
            let repeats = history.rchunks_exact(period).take_while(|chunk| *chunk == pattern).count() as u32;
            if let Some(trip) = trip("cycles", repeats, self.limits.cycles) {
                return Some(trip);
            }
        }
        None
    }
}

fn trip(breaker: &'static str, count: u32, limit: u32) -> Option<Trip> {
    (count > limit).then_some(Trip { breaker, count, limit })
}

/// What the page looked like at the last action, and whether a read since showed it
/// otherwise: repeating an action on a page that keeps changing (a button that goes and
/// comes back each round) is progress, not a loop. Atomics because reads take `&self`
/// and the run is a `Send` future; 0 means "not seen yet".
#[derive(Default)]
pub(crate) struct PageWatch {
    at_action: AtomicU64,
    last: AtomicU64,
    changed: AtomicBool,
}

impl PageWatch {
    pub fn saw(&self, signals: &Signals) {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&signals.url, &signals.title, &signals.results).hash(&mut hasher);
        let page = hasher.finish() | 1;
        self.last.store(page, Ordering::Relaxed);
        let at_action = self.at_action.load(Ordering::Relaxed);
        if at_action != 0 && at_action != page {
            self.changed.store(true, Ordering::Relaxed);
        }
    }

    /// A value read off the page is not the one read before.
    pub fn read_anew(&self) {
        self.changed.store(true, Ordering::Relaxed);
    }

    /// An action on an element was performed on the page last read; returns whether the
    /// page changed since the action on an element before it.
    pub fn acted(&self) -> bool {
        self.at_action.store(self.last.load(Ordering::Relaxed), Ordering::Relaxed);
        self.changed.swap(false, Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits { state_entries: 5, action_attempts: 6, same_target: 3, cycles: 2, consecutive_failures: 2 }
    }

    #[test]
    fn a_cycle_of_two_states_trips_after_the_limit() {
        let mut b = Breakers::new(&limits(), 3);
        // Entering 1 for the first time is the last progress; from there 1,0 repeats.
        let trips: Vec<_> = [0, 1, 0, 1, 0, 1, 0].iter().map(|&s| b.entered(s, false)).collect();
        assert_eq!(trips[..6], [None, None, None, None, None, None], "two repetitions are allowed");
        assert_eq!(trips[6], Some(Trip { breaker: "cycles", count: 3, limit: 2 }));
    }

    #[test]
    fn reaching_a_new_state_is_progress() {
        let mut b = Breakers::new(&limits(), 3);
        for s in [0, 1, 0, 1, 2, 0, 1, 0] {
            assert_eq!(b.entered(s, false), None, "state 2 reset the cycle count");
        }
    }

    #[test]
    fn state_entries_and_same_target() {
        let mut b = Breakers::new(&limits(), 1);
        let trips: Vec<_> = (0..6).map(|_| b.entered(0, false)).collect();
        assert_eq!(trips[5], Some(Trip { breaker: "state_entries", count: 6, limit: 5 }));
        let mut b = Breakers::new(&limits(), 1);
        let acts: Vec<_> = (0..4).map(|_| b.acted(0, 0, Some(Some("e1")), false)).collect();
        assert_eq!(acts[3], Some(Trip { breaker: "same_target", count: 4, limit: 3 }));
        assert_eq!(b.acted(0, 1, Some(Some("e2")), false), None, "another element starts a new count");
        let mut b = Breakers::new(&limits(), 1);
        // Past `same_target` (3), short of `action_attempts` (6).
        for round in 0..6 {
            let fresh = format!("e{round}");
            assert_eq!(b.acted(0, 0, Some(Some(&fresh)), false), None, "a button made anew each round is progress");
        }
    }

    #[test]
    fn consecutive_failures_reset_on_verification() {
        let mut b = Breakers::new(&limits(), 1);
        assert_eq!(b.failed(), None);
        b.verified();
        assert_eq!(b.failed(), None);
        assert_eq!(b.failed().map(|t| t.count), Some(2));
    }
}
