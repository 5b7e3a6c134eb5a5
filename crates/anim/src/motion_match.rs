//! Motion matching's search: a database of feature vectors, one per candidate frame,
//! each feature group normalised by its standard deviation and weighted, and the nearest frame
//! to a query by squared distance. The accelerated search follows Daniel Holden's
//! (orangeduck/Motion-Matching, `database.h`): axis-aligned bounding boxes over runs of 16 and
//! 64 consecutive frames give a lower bound on any of their frames' cost, so whole runs are
//! skipped; a frame's sum stops once it passes the best. It returns exactly the brute-force
//! answer, ties to the lowest index. Pure data and functions; no allocation per query.

use std::ops::Range;

/// Frames a small and a large bounding box span (Holden's sizes; a coarser level of 512 frames
/// above them measured no faster on 200,000 frames).
pub const SMALL_BOX: usize = 16;
pub const LARGE_BOX: usize = 64;
const SPANS: [usize; 2] = [LARGE_BOX, SMALL_BOX];
/// Features summed between tests of a partial cost against the best.
const CHUNK: usize = 8;

/// A group of consecutive feature dimensions normalised together (a foot's position, the
/// trajectory's directions, ...), and its weight.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureGroup {
    pub name: String,
    pub dims: usize,
    pub weight: f32,
}

/// Why a database could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MatchError {
    #[error("{rows} values are not whole rows of {dims} features")]
    Ragged { rows: usize, dims: usize },
    #[error("candidate range {start}..{end} is outside the {frames} frames")]
    Range {
        start: usize,
        end: usize,
        frames: usize,
    },
    #[error("a query of {got} features for a database of {want}")]
    Query { got: usize, want: usize },
    #[error("a feature is not a finite number (frame {frame}, feature {feature})")]
    NotFinite { frame: usize, feature: usize },
}

/// Per feature: subtract `offset`, divide by `scale` (the group's standard deviation over its
/// weight), as Holden's `features_offset` and `features_scale`.
#[derive(Clone, Debug, PartialEq)]
pub struct Normalizer {
    pub offset: Vec<f32>,
    pub scale: Vec<f32>,
}

impl Normalizer {
    /// The offsets (means) and scales of `raw` (`dims` features a row), by `groups`: each
    /// group's scale is the mean of its dimensions' standard deviations, divided by its weight
    /// (a group that never varies gets a scale of 1; a weight of 0 leaves it out of the cost).
    pub fn fit(raw: &[f32], groups: &[FeatureGroup]) -> Result<Self, MatchError> {
        let dims: usize = groups.iter().map(|g| g.dims).sum();
        if dims == 0 || !raw.len().is_multiple_of(dims) {
            return Err(MatchError::Ragged {
                rows: raw.len(),
                dims,
            });
        }
        let n = (raw.len() / dims).max(1) as f64;
        let mut offset = vec![0.0f64; dims];
        for row in raw.chunks_exact(dims) {
            for (o, &x) in offset.iter_mut().zip(row) {
                *o += f64::from(x);
            }
        }
        offset.iter_mut().for_each(|o| *o /= n);
        let mut variance = vec![0.0f64; dims];
        for row in raw.chunks_exact(dims) {
            for ((v, &x), o) in variance.iter_mut().zip(row).zip(&offset) {
                let d = f64::from(x) - o;
                *v += d * d;
            }
        }
        let mut scale = vec![1.0f32; dims];
        let mut first = 0;
        for g in groups {
            let range = first..first + g.dims;
            let std =
                range.clone().map(|d| (variance[d] / n).sqrt()).sum::<f64>() / g.dims.max(1) as f64;
            let s = if std > 1e-12 { std as f32 } else { 1.0 };
            for d in range {
                // A weight of 0 (or less): an infinite scale, the group out of the cost.
                scale[d] = if g.weight > 0.0 {
                    s / g.weight
                } else {
                    f32::INFINITY
                };
            }
            first += g.dims;
        }
        Ok(Self {
            offset: offset.into_iter().map(|o| o as f32).collect(),
            scale,
        })
    }

    /// `raw` normalised into `out` (as long).
    pub fn apply(&self, raw: &[f32], out: &mut [f32]) {
        for (k, (o, &x)) in out.iter_mut().zip(raw).enumerate() {
            let d = k % self.offset.len();
            *o = (x - self.offset[d]) / self.scale[d];
        }
    }
}

/// A box's bounds per feature.
#[derive(Clone, Debug, PartialEq)]
struct Boxes {
    min: Vec<f32>,
    max: Vec<f32>,
}

impl Boxes {
    /// Bounds of every run of `span` frames of `features` (`dims` a row).
    fn of(features: &[f32], dims: usize, span: usize) -> Self {
        let frames = features.len() / dims.max(1);
        let count = frames.div_ceil(span);
        let mut min = vec![f32::INFINITY; count * dims];
        let mut max = vec![f32::NEG_INFINITY; count * dims];
        for (f, row) in features.chunks_exact(dims).enumerate() {
            let b = f / span;
            for (d, &x) in row.iter().enumerate() {
                let k = b * dims + d;
                min[k] = min[k].min(x);
                max[k] = max[k].max(x);
            }
        }
        Self { min, max }
    }

    /// The least squared distance from `query` to box `b`, stopping once it reaches `best`
    /// (tested at every feature: a box is usually ruled out in its first few).
    fn lower_bound(&self, b: usize, query: &[f32], best: f32) -> f32 {
        let dims = query.len();
        let (min, max) = (&self.min[b * dims..][..dims], &self.max[b * dims..][..dims]);
        let mut cost = 0.0;
        for ((&q, &lo), &hi) in query.iter().zip(min).zip(max) {
            let d = q - q.clamp(lo, hi);
            cost += d * d;
            if cost >= best {
                break;
            }
        }
        cost
    }
}

/// The candidate frames' normalised features and their bounding boxes.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureIndex {
    dims: usize,
    features: Vec<f32>,
    /// Runs of consecutive candidate frames (a clip's frames whose future stays in the clip).
    ranges: Vec<Range<usize>>,
    /// The bounding boxes of every `SPANS` run, coarsest first.
    boxes: Vec<Boxes>,
}

impl FeatureIndex {
    /// An index of `features` (normalised, `dims` a row) whose candidates are the frames of
    /// `ranges`.
    pub fn new(
        dims: usize,
        features: Vec<f32>,
        ranges: Vec<Range<usize>>,
    ) -> Result<Self, MatchError> {
        if dims == 0 || !features.len().is_multiple_of(dims) {
            return Err(MatchError::Ragged {
                rows: features.len(),
                dims,
            });
        }
        let frames = features.len() / dims;
        if let Some(r) = ranges.iter().find(|r| r.start > r.end || r.end > frames) {
            return Err(MatchError::Range {
                start: r.start,
                end: r.end,
                frames,
            });
        }
        if let Some(k) = features.iter().position(|x| x.is_nan() || x.is_infinite()) {
            return Err(MatchError::NotFinite {
                frame: k / dims,
                feature: k % dims,
            });
        }
        Ok(Self {
            boxes: SPANS
                .iter()
                .map(|&s| Boxes::of(&features, dims, s))
                .collect(),
            dims,
            features,
            ranges,
        })
    }

    /// The runs of candidate frames.
    pub fn ranges(&self) -> &[Range<usize>] {
        &self.ranges
    }

    /// Frame `f`'s normalised features.
    pub fn row(&self, f: usize) -> &[f32] {
        &self.features[f * self.dims..][..self.dims]
    }

    fn check(&self, query: &[f32]) -> Result<(), MatchError> {
        if query.len() == self.dims {
            Ok(())
        } else {
            Err(MatchError::Query {
                got: query.len(),
                want: self.dims,
            })
        }
    }

    /// Frame `f`'s squared distance from `query`, stopping once it reaches `best` (tested every
    /// `CHUNK` features, so the sums within vectorise). `brute` and `search` both sum through
    /// here, in the same order, so their costs are equal bit for bit.
    fn cost(&self, f: usize, query: &[f32], best: f32) -> f32 {
        let mut cost = 0.0;
        for (xs, qs) in self.row(f).chunks(CHUNK).zip(query.chunks(CHUNK)) {
            cost += xs
                .iter()
                .zip(qs)
                .map(|(x, q)| (x - q) * (x - q))
                .sum::<f32>();
            if cost >= best {
                break;
            }
        }
        cost
    }

    /// Candidate `f`'s cost against `query` (normalised), as the searches sum it; `None` when
    /// `f` is not a candidate.
    pub fn candidate_cost(&self, f: usize, query: &[f32]) -> Result<Option<f32>, MatchError> {
        self.check(query)?;
        let candidate = self.ranges.iter().any(|r| r.contains(&f));
        Ok(candidate.then(|| self.cost(f, query, f32::INFINITY)))
    }

    /// The candidate nearest `query` (normalised) and its cost, every frame measured.
    pub fn brute(&self, query: &[f32]) -> Result<Option<(usize, f32)>, MatchError> {
        self.check(query)?;
        let mut best: Option<(usize, f32)> = None;
        for range in &self.ranges {
            for f in range.clone() {
                let cost = self.cost(f, query, f32::INFINITY);
                if best.is_none_or(|(_, b)| cost < b) {
                    best = Some((f, cost));
                }
            }
        }
        Ok(best)
    }

    /// The `k` candidates nearest `query` (normalised), nearest first, every frame measured
    /// (ties in index order): what a search debugger lists. The first is `brute`'s answer.
    pub fn nearest_k(&self, query: &[f32], k: usize) -> Result<Vec<(usize, f32)>, MatchError> {
        self.check(query)?;
        let mut best: Vec<(usize, f32)> = Vec::with_capacity(k + 1);
        for range in &self.ranges {
            for f in range.clone() {
                let bound = if best.len() == k {
                    best.last().map_or(f32::INFINITY, |b| b.1)
                } else {
                    f32::INFINITY
                };
                let cost = self.cost(f, query, bound);
                if cost < bound {
                    let at = best.partition_point(|b| b.1 <= cost);
                    best.insert(at, (f, cost));
                    best.truncate(k);
                }
            }
        }
        Ok(best)
    }

    /// The same answer as `brute`, skipping the runs of frames whose bounding box is already
    /// farther than the best found.
    pub fn search(&self, query: &[f32]) -> Result<Option<(usize, f32)>, MatchError> {
        self.search_from(query, None)
    }

    /// `search`, starting from the cost of `current` (the frame playing now, as Holden's search
    /// starts): a near frame bounds the search from the start, so far more is skipped. The
    /// answer is the same (`current` itself is found again if nothing is nearer; ties go to the
    /// lowest index).
    pub fn search_from(
        &self,
        query: &[f32],
        current: Option<usize>,
    ) -> Result<Option<(usize, f32)>, MatchError> {
        self.check(query)?;
        // A bound only: `current` is not taken as the answer until its turn in index order, so
        // an equally near frame before it still wins, as in `brute`. The bound is raised by a
        // hair so `current` itself passes the strict test when its turn comes.
        let start = current
            .filter(|&f| self.ranges.iter().any(|r| r.contains(&f)))
            .map(|f| self.cost(f, query, f32::INFINITY));
        let ceiling = start.map_or(f32::INFINITY, |c| c + c.abs() * 1e-6 + f32::MIN_POSITIVE);
        let mut best: Option<(usize, f32)> = None;
        for range in &self.ranges {
            self.scan(0, range.clone(), query, ceiling, &mut best);
        }
        Ok(best)
    }

    /// The frames of `frames` nearer `query` than the best so far (or `ceiling`), through the
    /// boxes of `level` and finer: a box whose lower bound is no nearer is skipped whole.
    fn scan(
        &self,
        level: usize,
        frames: Range<usize>,
        query: &[f32],
        ceiling: f32,
        best: &mut Option<(usize, f32)>,
    ) {
        let bound = |best: &Option<(usize, f32)>| best.map_or(ceiling, |b| b.1);
        let Some((span, boxes)) = SPANS.get(level).zip(self.boxes.get(level)) else {
            for f in frames {
                let cost = self.cost(f, query, bound(best));
                if cost < bound(best) {
                    // The full sum, as `brute` sums it (the early stop only skips).
                    *best = Some((f, self.cost(f, query, f32::INFINITY)));
                }
            }
            return;
        };
        let mut f = frames.start;
        while f < frames.end {
            let b = f / span;
            let end = ((b + 1) * span).min(frames.end);
            if boxes.lower_bound(b, query, bound(best)) < bound(best) {
                self.scan(level + 1, f..end, query, ceiling, best);
            }
            f = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of numbers in -1..1.
    fn noise(seed: u64) -> impl FnMut() -> f32 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        }
    }

    #[test]
    fn groups_are_scaled_by_their_standard_deviation_over_their_weight() {
        // Two groups: x in {0, 2} (std 1), weight 2; y in {10, 10} (never varies), weight 1.
        let groups = [
            FeatureGroup {
                name: "x".into(),
                dims: 1,
                weight: 2.0,
            },
            FeatureGroup {
                name: "y".into(),
                dims: 1,
                weight: 1.0,
            },
        ];
        let n = Normalizer::fit(&[0.0, 10.0, 2.0, 10.0], &groups).unwrap();
        assert_eq!(n.offset, vec![1.0, 10.0]);
        assert_eq!(n.scale, vec![0.5, 1.0]);
        let mut out = [0.0; 2];
        n.apply(&[2.0, 11.0], &mut out);
        assert_eq!(out, [2.0, 1.0]);
    }

    #[test]
    fn the_nearest_k_are_the_k_lowest_costs_in_order() {
        let (dims, frames) = (5, 400);
        let mut r = noise(11);
        let features: Vec<f32> = (0..dims * frames).map(|_| r()).collect();
        let ranges = vec![0..150, 200..390];
        let index = FeatureIndex::new(dims, features, ranges.clone()).unwrap();
        for q in 0..20 {
            let query: Vec<f32> = (0..dims).map(|_| r()).collect();
            let found = index.nearest_k(&query, 10).unwrap();
            // Every candidate's cost, sorted: the first ten are the ten found.
            let mut all: Vec<(usize, f32)> = (ranges.iter().cloned().flatten())
                .map(|f| {
                    let cost = (index.row(f).iter().zip(&query))
                        .map(|(x, q)| (x - q) * (x - q))
                        .sum::<f32>();
                    (f, cost)
                })
                .collect();
            all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            assert_eq!(found.len(), 10);
            for ((f, c), (g, d)) in found.iter().zip(&all) {
                assert_eq!(f, g, "query {q}");
                assert!((c - d).abs() <= 1e-5 * d.max(1.0));
            }
            assert_eq!(found[0], index.brute(&query).unwrap().unwrap());
        }
        assert!(index.nearest_k(&[0.0; 5], 0).unwrap().is_empty());
        assert!(index.nearest_k(&[0.0; 4], 3).is_err());
    }

    #[test]
    fn the_accelerated_search_returns_exactly_the_brute_force_answer() {
        let dims = 27;
        let frames = 5000;
        let mut r = noise(7);
        // Smooth runs, as a clip's frames are (boxes then prune), with jumps between clips.
        let mut features = Vec::with_capacity(frames * dims);
        let mut at: Vec<f32> = (0..dims).map(|_| r()).collect();
        for f in 0..frames {
            if f % 700 == 0 {
                at = (0..dims).map(|_| 3.0 * r()).collect();
            }
            for x in at.iter_mut() {
                *x += 0.05 * r();
            }
            features.extend_from_slice(&at);
        }
        let ranges = vec![0..650, 700..1390, 1400..4990];
        let index = FeatureIndex::new(dims, features, ranges.clone()).unwrap();
        for q in 0..300 {
            let query: Vec<f32> = if q % 3 == 0 {
                // Near a frame (some of them outside the candidates).
                let f = (q * 37) % frames;
                index.row(f).iter().map(|x| x + 0.01 * r()).collect()
            } else {
                (0..dims).map(|_| 3.0 * r()).collect()
            };
            let (brute, fast) = (index.brute(&query).unwrap(), index.search(&query).unwrap());
            assert_eq!(brute, fast, "query {q}");
            // Started from any frame (a candidate or not), the same answer.
            let from = index.search_from(&query, Some((q * 101) % frames)).unwrap();
            assert_eq!(brute, from, "query {q} from a frame");
            let (f, _) = brute.unwrap();
            assert!(ranges.iter().any(|r| r.contains(&f)));
        }
        // A candidate frame's own features find that frame, at a cost of 0.
        for f in [0, 333, 1500, 4989] {
            let own = index.row(f).to_vec();
            assert_eq!(index.search(&own).unwrap(), Some((f, 0.0)));
        }
        // A query of the wrong length is refused.
        assert!(matches!(
            index.search(&[0.0; 3]),
            Err(MatchError::Query { got: 3, want: 27 })
        ));
    }
}
