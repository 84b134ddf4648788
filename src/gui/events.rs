//! The event stream: every open page subscribes, and gets each new game state and the live
//! analysis as Server-Sent Events. Analysis events are thinned to at most one per
//! [`MIN_ANALYSIS_GAP`] (ten a second) whatever the search reports, so the page stays responsive.

use crossbeam::channel::{bounded, Receiver, Sender, TrySendError};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most pages streaming at once.
pub const MAX_SUBSCRIBERS: usize = 16;
/// Shortest time between two analysis events.
pub const MIN_ANALYSIS_GAP: Duration = Duration::from_millis(100);
/// Events queued for a slow reader before it is dropped (its page reconnects and gets the
/// current state afresh).
const QUEUE: usize = 64;

/// The subscribers.
#[derive(Default)]
pub struct Events {
    subscribers: Mutex<Vec<Sender<Arc<str>>>>,
    last_analysis: Mutex<Option<Instant>>,
}

/// One Server-Sent Event of type `kind` whose data is one line of JSON.
pub fn format(kind: &str, json: &str) -> Arc<str> {
    debug_assert!(!json.contains('\n'));
    Arc::from(format!("event: {kind}\ndata: {json}\n\n"))
}

impl Events {
    /// A new subscriber, given `first` before anything else; `None` when there are too many.
    pub fn subscribe(&self, first: Arc<str>) -> Option<Receiver<Arc<str>>> {
        let mut subs = self.subscribers.lock();
        if subs.len() >= MAX_SUBSCRIBERS {
            // Prune readers that went away since the last broadcast (a comment line is ignored
            // by the pages that are still there).
            let ping: Arc<str> = Arc::from(": ping\n\n");
            subs.retain(|s| s.try_send(ping.clone()).is_ok());
        }
        if subs.len() >= MAX_SUBSCRIBERS {
            return None;
        }
        let (tx, rx) = bounded(QUEUE);
        tx.try_send(first).ok()?;
        subs.push(tx);
        Some(rx)
    }

    /// Sends a game state to every subscriber.
    pub fn state(&self, json: &str) {
        self.broadcast(format("state", json));
    }

    /// Sends an analysis snapshot unless one went out less than [`MIN_ANALYSIS_GAP`] ago;
    /// whether it was sent.
    pub fn analysis(&self, json: &str) -> bool {
        self.analysis_at(json, Instant::now())
    }

    /// [`Events::analysis`] at time `now`.
    fn analysis_at(&self, json: &str, now: Instant) -> bool {
        {
            let mut last = self.last_analysis.lock();
            if last.is_some_and(|t| now.duration_since(t) < MIN_ANALYSIS_GAP) {
                return false;
            }
            *last = Some(now);
        }
        self.broadcast(format("analysis", json));
        true
    }

    /// Number of subscribers.
    pub fn count(&self) -> usize {
        self.subscribers.lock().len()
    }

    fn broadcast(&self, event: Arc<str>) {
        // A full queue means the reader stalled: drop it rather than block the engine.
        self.subscribers
            .lock()
            .retain(|s| match s.try_send(event.clone()) {
                Ok(()) => true,
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscribers_get_states_and_thinned_analysis() {
        let events = Events::default();
        let rx = events.subscribe(format("state", "{}")).unwrap();
        events.state("{\"n\":1}");
        let t = Instant::now();
        assert!(events.analysis_at("{}", t));
        // Within the gap after one analysis event, the next is dropped.
        assert!(!events.analysis_at("{}", t + MIN_ANALYSIS_GAP / 2));
        assert!(events.analysis_at("{}", t + MIN_ANALYSIS_GAP));
        let got: Vec<Arc<str>> = rx.try_iter().collect();
        assert_eq!(got.len(), 4);
        assert_eq!(&*got[1], "event: state\ndata: {\"n\":1}\n\n");
        drop(rx);
        events.state("{}");
        assert_eq!(events.count(), 0);
    }

    #[test]
    fn a_stalled_reader_is_dropped_and_the_cap_holds() {
        let events = Events::default();
        let _stalled = events.subscribe(format("state", "{}")).unwrap();
        for _ in 0..QUEUE {
            events.state("{}");
        }
        assert_eq!(events.count(), 0);
        let keep: Vec<_> = (0..MAX_SUBSCRIBERS)
            .map(|_| events.subscribe(format("state", "{}")).unwrap())
            .collect();
        assert!(events.subscribe(format("state", "{}")).is_none());
        drop(keep);
    }
}
