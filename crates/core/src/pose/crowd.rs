//! A crowd: many copies of one character on a grid, each at its own phase of a two-clip blend
//! (idle/walk style) and its own weight. Every member's palettes go into one array (one storage
//! buffer on the GPU, indexed by instance), posed in parallel over the cores.
//!
//! Level of detail (`update_lod`): members far from the camera are posed every 2nd, 4th or 8th
//! frame, staggered by block of 64 members (by member in a crowd of fewer than 8 blocks) so each
//! frame poses about as many, their palettes held between (Unreal's update rate optimisation
//! without interpolation). A block that lies wholly in one band of distances is held as a whole,
//! from its bounding box's nearest and farthest points (each taken 1e-4 of its distance further
//! out, so that no rounding of a member's own distance could give another rate); a block that
//! straddles a band's edge takes each member's rate from its own distance. Events still fire once per time the member's playhead
//! crosses them, at their clip time, whatever the rate: a member posed after a long gap fires
//! what the gap crossed, once per loop.

use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::request::{BlendSpec, ClipTime};
use super::{CharacterPose, PoseRequest};
use crate::anim::wrap_time;
use crate::character::Character;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Member {
    /// Offset of this member's phase, as a ratio of the cycle.
    phase: f32,
    /// Weight of clip B.
    weight: f32,
    offset: Vec3,
}

pub struct Crowd {
    members: Vec<Member>,
    /// Each block's members' offsets bound: the least and the greatest corner.
    block_bounds: Vec<(Vec3, Vec3)>,
    clips: (usize, usize),
    /// Entries per member: a `CharacterPose` palette (identity entry, then each skinned
    /// instance's).
    palette_len: usize,
    /// `palette_len` entries per member, members in order.
    pub palette: Vec<Mat4>,
    /// `world_from_mesh` per member per instance (members major).
    pub world_from_mesh: Vec<Mat4>,
    /// Where each instance's palette starts within a member's entries.
    pub palette_base: Vec<u32>,
    /// Weight-blended skinning's method weight per entry of a member's palette (the
    /// template's `palette_method`).
    pub palette_method: Vec<f32>,
    /// Each member's morph weights, `morph_stride` per member (at least one slot each).
    pub morph_weights: Vec<f32>,
    pub morph_stride: usize,
    /// Instance `i`'s weights within a member's: `morph_base[i]..morph_base[i + 1]`.
    pub morph_base: Vec<u32>,
    instances: usize,
    /// Sample the clips' compressed keys where they have them (`PoseRequest::compressed`).
    pub compressed: bool,
    /// One pose scratch per block of members, made once: a frame allocates nothing.
    scratch: Vec<CharacterPose>,
    /// Each member's unwrapped cycle ratio (laps plus phase) when last posed; NaN before its
    /// first pose (which fires nothing).
    last_ratio: Vec<f64>,
    /// Each member's rate at the last update (1: every frame; 2, 4, 8).
    pub rates: Vec<u8>,
    /// Frames updated so far (what staggers the members' turns).
    frame: u64,
    /// The events the last update fired, members in order; and each block's, gathered.
    pub fired: Vec<CrowdEvent>,
    block_fired: Vec<Vec<CrowdEvent>>,
}

/// One event a crowd member's playhead crossed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdEvent {
    pub member: u32,
    /// The clip whose event it is (the member's heavier clip, its sync group's leader as in
    /// Unreal), and the event's index among that clip's events.
    pub clip: u32,
    pub event: u32,
    /// The event's clip time.
    pub time_secs: f32,
}

/// How often members are posed by their distance from the camera: every frame nearer than
/// `distances[0]`, every 2nd frame nearer than `distances[1]`, every 4th nearer than
/// `distances[2]`, every 8th beyond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdLod {
    pub distances: [f32; 3],
}

impl CrowdLod {
    /// At 10, 20 and 40 character heights: where a character is about a tenth, a twentieth and
    /// a fortieth of a 45-degree view's height.
    pub fn for_height(height: f32) -> Self {
        Self {
            distances: [10.0, 20.0, 40.0].map(|k| k * height),
        }
    }

    /// Every member every frame.
    pub fn full() -> Self {
        Self {
            distances: [f32::INFINITY; 3],
        }
    }

    /// The rate at `distance`: 1, 2, 4 or 8.
    pub fn rate(&self, distance: f32) -> u8 {
        let beyond = self.distances.iter().filter(|&&d| distance >= d).count();
        1 << beyond
    }

    /// The rate every point of the box `lo`..`hi` has seen from `eye`, when the whole box lies
    /// in one band of distances, with a margin of 1e-4 of its distance on either side that no
    /// rounding of a point's distance crosses (`rate` rises with the distance); `None` when the
    /// box straddles a band's edge.
    fn box_rate(&self, eye: Vec3, (lo, hi): (Vec3, Vec3)) -> Option<u8> {
        const MARGIN: f32 = 1e-4;
        let near = (lo - eye).max(eye - hi).max(Vec3::ZERO).length();
        let far = (eye - lo).abs().max((hi - eye).abs()).length();
        let rate = self.rate(near * (1.0 - MARGIN));
        (rate == self.rate(far * (1.0 + MARGIN))).then_some(rate)
    }
}

/// Members posed by one task (one scratch pose). 64 rather than 16: a quarter of the scratch
/// poses stay in cache (10,000 Fox: 2.3 ms a frame on 2 threads instead of 2.5-2.9).
const BLOCK: usize = 64;

impl Crowd {
    /// `count` members on a square grid `spacing` apart, blending clips `a` and `b` (indices into
    /// the character's clips) with weights and phases spread over the crowd.
    pub fn new(c: &Character, count: usize, clips: (usize, usize), spacing: f32) -> Self {
        let template = CharacterPose::new(c);
        let side = (count as f32).sqrt().ceil().max(1.0) as usize;
        let members = (0..count)
            .map(|k| {
                let (row, col) = (k / side, k % side);
                let centre = (side as f32 - 1.0) * 0.5;
                Member {
                    // Deterministic, well spread: golden-ratio sequences.
                    phase: (k as f32 * 0.618_034).fract(),
                    weight: (k as f32 * 0.414_213_57).fract(),
                    offset: Vec3::new(
                        (col as f32 - centre) * spacing,
                        0.0,
                        (row as f32 - centre) * spacing,
                    ),
                }
            })
            .collect::<Vec<Member>>();
        let block_bounds = members
            .chunks(BLOCK)
            .map(|block| {
                (block.iter()).fold((Vec3::MAX, Vec3::MIN), |(lo, hi), m| {
                    (lo.min(m.offset), hi.max(m.offset))
                })
            })
            .collect();
        Self {
            members,
            block_bounds,
            clips,
            palette_len: template.palette.len(),
            palette: vec![Mat4::IDENTITY; template.palette.len() * count],
            world_from_mesh: vec![Mat4::IDENTITY; c.instances.len() * count],
            palette_base: template.palette_base.clone(),
            palette_method: template.palette_method.clone(),
            morph_weights: vec![0.0; template.morph.weights.len().max(1) * count],
            morph_stride: template.morph.weights.len().max(1),
            morph_base: template.morph.base.clone(),
            instances: c.instances.len(),
            compressed: false,
            scratch: (0..count.div_ceil(BLOCK))
                .map(|_| CharacterPose::new(c))
                .collect(),
            last_ratio: vec![f64::NAN; count],
            rates: vec![1; count],
            frame: 0,
            fired: Vec::new(),
            block_fired: vec![Vec::new(); count.div_ceil(BLOCK)],
        }
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Each member's place on the grid (its offset from the grid's centre), members in order.
    pub fn offsets(&self) -> impl ExactSizeIterator<Item = Vec3> + '_ {
        self.members.iter().map(|m| m.offset)
    }

    /// Palette entries per member.
    pub fn palette_len(&self) -> usize {
        self.palette_len
    }

    /// Poses every member at shared clock `time_secs`, in parallel over rayon's threads (set
    /// their number with a `rayon::ThreadPool` around the call, or RAYON_NUM_THREADS).
    pub fn update(&mut self, c: &Character, time_secs: f32) {
        self.update_lod(c, time_secs, Vec3::ZERO, CrowdLod::full());
    }

    /// `update` with level of detail: each member's rate from its distance to `eye` (from its
    /// grid position), posed this frame when its turn comes (frame + its block's index, or its
    /// own in a small crowd, a multiple of the rate), held otherwise; `fired` lists the events crossed since each posed
    /// member was last posed.
    pub fn update_lod(&mut self, c: &Character, time_secs: f32, eye: Vec3, lod: CrowdLod) {
        let (a, b) = self.clips;
        let (Some(clip_a), Some(clip_b)) = (c.clips.get(a), c.clips.get(b)) else {
            return;
        };
        let shared = Shared {
            c,
            clips: [(a, clip_a), (b, clip_b)],
            durations: (clip_a.duration_secs(), clip_b.duration_secs()),
            time_secs,
            eye,
            lod,
            frame: self.frame,
            instances: self.instances,
            compressed: self.compressed,
            blocks: self.members.len().div_ceil(BLOCK),
            block_bounds: &self.block_bounds,
        };
        let members = &self.members;
        let (palette_len, stride) = (self.palette_len, self.morph_stride);
        let instances = self.instances.max(1);
        self.palette
            .par_chunks_mut(palette_len * BLOCK)
            .zip(self.world_from_mesh.par_chunks_mut(instances * BLOCK))
            .zip(self.morph_weights.par_chunks_mut(stride * BLOCK))
            .zip(self.scratch.par_iter_mut())
            .zip(self.last_ratio.par_chunks_mut(BLOCK))
            .zip(self.rates.par_chunks_mut(BLOCK))
            .zip(self.block_fired.par_iter_mut())
            .enumerate()
            .for_each(
                |(block, ((((((palettes, worlds), morphs), pose), last), rates), fired))| {
                    fired.clear();
                    let first = block * BLOCK;
                    // A block far enough from the camera for all its members to share a rate
                    // whose turn has not come costs its distance and nothing more (unless a
                    // member has not had its first pose).
                    let shared_rate = shared.block_rate(block);
                    if let Some(rate) = shared_rate
                        && !shared.on_turn(first, rate)
                        && !last.iter().any(|l| l.is_nan())
                    {
                        rates.fill(rate);
                        return;
                    }
                    // One request for the block, its clip times and weight set per member.
                    let mut request = shared.request();
                    let block_members = members[first..].iter().zip(last.iter_mut());
                    for (i, ((m, last), rate)) in block_members.zip(rates.iter_mut()).enumerate() {
                        // A member whose turn has not come costs its distance and nothing
                        // more; every member is posed at the crowd's first update.
                        let k = first + i;
                        *rate = shared_rate
                            .unwrap_or_else(|| shared.lod.rate(shared.eye.distance(m.offset)));
                        if !last.is_nan() && !shared.on_turn(k, *rate) {
                            continue;
                        }
                        let outputs = (
                            &mut palettes[i * palette_len..(i + 1) * palette_len],
                            &mut worlds[i * instances..(i + 1) * instances],
                            &mut morphs[i * stride..(i + 1) * stride],
                        );
                        let member = MemberState { k, m: *m, last };
                        shared.pose_member(member, pose, &mut request, outputs, fired);
                    }
                },
            );
        self.frame += 1;
        self.fired.clear();
        for block in &self.block_fired {
            self.fired.extend_from_slice(block);
        }
    }

    /// Bounds of the grid of characters, given one character's bounds.
    pub fn bounds(&self, one: (Vec3, Vec3)) -> (Vec3, Vec3) {
        self.members
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), m| {
                (lo.min(one.0 + m.offset), hi.max(one.1 + m.offset))
            })
    }
}

/// What every member's pose in one update shares.
struct Shared<'c> {
    c: &'c Character,
    /// Clips A and B: index and data.
    clips: [(usize, &'c crate::character::ClipData); 2],
    /// Their durations.
    durations: (f32, f32),
    time_secs: f32,
    eye: Vec3,
    lod: CrowdLod,
    frame: u64,
    instances: usize,
    compressed: bool,
    /// Blocks of `BLOCK` members in the crowd.
    blocks: usize,
    block_bounds: &'c [(Vec3, Vec3)],
}

/// One member and what the crowd keeps of it between updates.
struct MemberState<'a> {
    k: usize,
    m: Member,
    last: &'a mut f64,
}

impl Shared<'_> {
    /// Whether members take turns by block: in a crowd of 8 blocks or more (whole blocks posed
    /// together, their scratch pose and clips' keys kept in cache); a smaller crowd's members
    /// take turns one by one, its cost spread evenly too.
    fn turns_by_block(&self) -> bool {
        self.blocks >= 8
    }

    /// What staggers member `k`'s turns: its block of `BLOCK` members, or the member itself
    /// (`turns_by_block`).
    fn turn_slot(&self, k: usize) -> u64 {
        if self.turns_by_block() {
            (k / BLOCK) as u64
        } else {
            k as u64
        }
    }

    /// The rate all of block `block`'s members have, when they share one and their turns come
    /// together (`turns_by_block`).
    fn block_rate(&self, block: usize) -> Option<u8> {
        if !self.turns_by_block() {
            return None;
        }
        self.lod.box_rate(self.eye, *self.block_bounds.get(block)?)
    }

    /// The request every member's pose starts from: clip A with clip B blended in step.
    fn request(&self) -> PoseRequest {
        let [(a, _), (b, _)] = self.clips;
        PoseRequest::clip(a, 0.0)
            .with_blend(b, 0.0)
            .with_compressed(self.compressed)
    }

    /// Whether member `k`, at `rate` (1, 2, 4 or 8), is posed this frame: when the frame plus
    /// its turn slot is a multiple of the rate.
    fn on_turn(&self, k: usize, rate: u8) -> bool {
        (self.frame + self.turn_slot(k)) & (u64::from(rate) - 1) == 0
    }

    /// Poses member `s` into its slices of the crowd's arrays, with the events crossed since
    /// its last pose. `request` is `request()`'s, as a member before left it.
    fn pose_member(
        &self,
        s: MemberState<'_>,
        pose: &mut CharacterPose,
        request: &mut PoseRequest,
        (palette, world, morph): (&mut [Mat4], &mut [Mat4], &mut [f32]),
        fired: &mut Vec<CrowdEvent>,
    ) {
        let m = s.m;
        let first = s.last.is_nan();
        let [(a, _), (b, _)] = self.clips;
        let (da, db) = self.durations;
        // Both clips at the same ratio of their cycle, whose length follows the weight.
        let cycle = da + (db - da) * m.weight;
        let (ratio, unwrapped) = if cycle > 0.0 {
            (
                wrap_time(self.time_secs / cycle + m.phase, 1.0),
                f64::from(self.time_secs) / f64::from(cycle) + f64::from(m.phase),
            )
        } else {
            (0.0, 0.0)
        };
        // Its events count from there.
        if first {
            *s.last = unwrapped;
        }
        let leader = self.clips[usize::from(m.weight >= 0.5)];
        crossed_events(s.k, leader, (*s.last, unwrapped), fired);
        *s.last = unwrapped;
        request.clip = Some(ClipTime {
            clip: a,
            time_secs: ratio * da,
        });
        request.blend = Some(BlendSpec {
            b,
            weight: m.weight,
        });
        // Written straight into the crowd's arrays; a member that fails to pose (it cannot: the
        // buffers were sized from this character) keeps its last frame.
        let instances = self.instances;
        if pose
            .evaluate_into(self.c, request, palette, &mut world[..instances])
            .is_ok()
        {
            // Mat4::from_translation(offset) * w without the full product: each column gains
            // `offset` times its w.
            for w in world.iter_mut() {
                for col in [&mut w.x_axis, &mut w.y_axis, &mut w.z_axis, &mut w.w_axis] {
                    *col += (m.offset * col.w).extend(0.0);
                }
            }
            if !pose.morph.is_empty() {
                let weights = &pose.morph.weights;
                morph[..weights.len()].copy_from_slice(weights);
            }
        }
    }
}

/// The most laps one update fires events for (a clock that jumps further fires these, not
/// millions).
const MOST_LAPS: f64 = 10_000.0;

/// Pushes member `k`'s events of `clip` crossed going from unwrapped cycle ratio `from` to `to`
/// (forward only: the crowd's clock runs forward), in the order met: event e at ratio r fires
/// once for each whole n with from < n + r <= to, so a gap of several loops fires it once per
/// loop (at most `MOST_LAPS` laps).
fn crossed_events(
    k: usize,
    (index, clip): (usize, &crate::character::ClipData),
    (from, to): (f64, f64),
    fired: &mut Vec<CrowdEvent>,
) {
    let duration = f64::from(clip.duration_secs());
    let events = clip.clip.events();
    if from.is_nan() || to <= from || duration <= 0.0 || events.is_empty() {
        return;
    }
    let first = from.floor();
    let last = to.floor().min(first + MOST_LAPS);
    let mut lap = first;
    while lap <= last {
        for (e, event) in events.iter().enumerate() {
            let at = lap + f64::from(event.time_secs) / duration;
            if from < at && at <= to {
                fired.push(CrowdEvent {
                    member: k as u32,
                    clip: index as u32,
                    event: e as u32,
                    time_secs: event.time_secs,
                });
            }
        }
        lap += 1.0;
    }
}
