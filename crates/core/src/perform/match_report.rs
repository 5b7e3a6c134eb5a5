//! Motion matching's search as a debugger lists it (Unreal's Pose Search debugger): the best
//! candidates with each feature group's share of their cost, the frame playing and its cost,
//! which frame was chosen and why the playing one was kept or left.

use crate::pose::MotionDatabase;

/// The candidates a report lists.
pub const TOP_CANDIDATES: usize = 10;

/// One database frame against a search's query.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub frame: usize,
    pub clip: usize,
    pub time_secs: f32,
    /// The whole cost (the sum of `group_costs`).
    pub cost: f32,
    /// Each feature group's share, in the database's groups' order.
    pub group_costs: Vec<f32>,
}

/// Why the search ended as it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOutcome {
    /// Nothing of the database was playing: the best frame starts.
    Started,
    /// The best frame is the one playing, or within `SURROUNDING` frames of it in its clip.
    KeptNear,
    /// The best frame does not beat the one playing by the transition cost.
    KeptCheaper,
    /// The best frame beats the one playing: it plays from now.
    Switched,
    /// The frame playing is no candidate (its future leaves its clip): the best plays.
    LeftEnd,
}

impl SearchOutcome {
    /// In words, for the panel and the report.
    pub fn why(self) -> &'static str {
        match self {
            SearchOutcome::Started => "nothing of the database was playing: the best frame starts",
            SearchOutcome::KeptNear => {
                "kept: the best frame is the one playing or near it in the same clip"
            }
            SearchOutcome::KeptCheaper => {
                "kept: the best frame does not beat the one playing by the transition cost"
            }
            SearchOutcome::Switched => "switched: the best frame beats the one playing",
            SearchOutcome::LeftEnd => {
                "switched: the frame playing is no candidate (its future leaves its clip)"
            }
        }
    }

    /// Whether the search switched frames.
    pub fn switched(self) -> bool {
        matches!(
            self,
            SearchOutcome::Started | SearchOutcome::Switched | SearchOutcome::LeftEnd
        )
    }
}

/// One search: see the module's documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The search's number (1 the first).
    pub search: u64,
    /// The frame playing when it searched, and its cost.
    pub playing: Option<Candidate>,
    /// The best candidates, nearest first (the first is the best).
    pub candidates: Vec<Candidate>,
    pub outcome: SearchOutcome,
    /// The feature groups' names, in `Candidate::group_costs`' order.
    pub groups: Vec<String>,
}

/// `frame`'s cost against the normalised `query`, whole and by group (as the search sums it).
pub fn candidate(db: &MotionDatabase, frame: usize, query: &[f32]) -> Candidate {
    let row = db.index.row(frame);
    let mut at = 0;
    let group_costs: Vec<f32> = db
        .groups
        .iter()
        .map(|g| {
            let cost = (at..at + g.dims).map(|i| (row[i] - query[i]).powi(2)).sum();
            at += g.dims;
            cost
        })
        .collect();
    let f = db.frames[frame];
    Candidate {
        frame,
        clip: f.clip,
        time_secs: f.time_secs,
        cost: group_costs.iter().sum(),
        group_costs,
    }
}
