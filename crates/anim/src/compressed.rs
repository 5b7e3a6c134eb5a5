//! The compressed clip's format and its runtime sampling (ozz-animation splits its offline
//! building from its runtime the same way): quantized key rows per cluster of tracks, and the
//! per-cluster decoding cursor a sampling context keeps (`ClipCursor::for_compressed`). Building
//! a compressed clip is `compress.rs`; measuring its error is `compress_error.rs`.
//!
//! Key times are frame numbers when the clip is keyed on a frame grid (exporters' clips are):
//! only the first when every frame is keyed, else marked a bit a frame, as gaps, or in as many
//! bits as the last one needs; without a grid, f32 seconds (`Times`). Translations, scales and
//! rotations (x, y and z with w positive) are whole steps of each track's range in 3 to 19 bits
//! a component, the width chosen per track (`Packed`), or floats where 19 bits would show; a
//! kind's tracks may be split into segments of about 16 or 32 keys, each with its own ranges and
//! widths (`Segments`).
//!
//! Sampling keeps each cluster's two rows decoded and decodes one row when playback crosses a key
//! (ozz's "decompress only the keys that changed"). At decode it also works out each rotation
//! track's arc, four tracks at a time (the angle between the keys from their chord by a
//! vectorised arcsine, and the unit quaternion orthogonal to the start key), as the raw clip does
//! at load; between keys a frame then runs the raw sampler's interpolation on the decoded rows,
//! at the raw clip's cost. A row decodes in one pass, four components at a time: for each four,
//! worked out at pack (not stored: it follows from the widths), the byte where the first one's
//! bits begin, each one's byte from there, its mask moved up to its first bit within that byte,
//! and its step divided by two to that power. One bounds check reads the four (the stream keeps
//! 264 spare bytes); each one's 8 bytes are shifted by the row's own first bit (one count for the
//! whole row), and masking and converting happen in lanes: the masked bits are the whole steps
//! times a power of two, so `min + step * masked` is the same value to the bit with no shift per
//! component. A component that spans less than 2^-100 holds still, so no scaled step comes near
//! the smallest normal float. A block of four rotations with every lane within unit length skips
//! the renormalisation's divisions and square root (the values are the same to the bit). The
//! blocks holding rotations stored in a frame of their own are then turned back out of it, four
//! tracks at a time (`left * stored * right`; identity in the other lanes). A pose
//! that last held the same compressed clip's sample is not put back at rest first, as a raw
//! clip's is not.

use glam::{Quat, Vec3, Vec4};

use super::runtime::{Block, IDENTITY_BLOCK, blocks};
use super::sample::locate_key;

/// Key times: every frame from `first` on (ACL's uniform sampling: the group's key count says
/// how many, and the key for a time is found by dividing), frame numbers on the clip's frame
/// grid (`CompressedClip::frame_secs`) marked in a bit a frame from the first, as the gaps
/// between them in as many bits as the widest needs, or in as many bits as the last one needs,
/// whichever is smaller, or seconds where the clip has no grid.
#[derive(Clone, Debug)]
pub(super) enum Times {
    Uniform {
        first: u16,
        count: usize,
    },
    /// Stored as the first frame and a bit for each frame from it to the last, set where a key
    /// is; the frame numbers are read out of the bits when the clip is built (not stored).
    Marked {
        /// Bit `k` (low bits first) is set where the first frame plus `k` holds a key.
        marks: Vec<u8>,
        frames: Vec<u16>,
    },
    /// Stored as the first frame, a byte of width and each gap to the next frame less one in
    /// that many bits (a clip keyed on a fine grid and reduced: keys a few frames apart); the
    /// frame numbers are summed when the clip is built (not stored).
    Gaps {
        frames: Vec<u16>,
    },
    Frames {
        count: usize,
        bits: u8,
        /// `bits` bits a frame, low bits first, with eight spare bytes (`read_window`).
        stream: Vec<u8>,
    },
    Seconds(Vec<f32>),
}

impl Times {
    /// Frame numbers: uniform times when they are consecutive, else packed.
    pub(super) fn frames(frames: &[u16]) -> Self {
        let consecutive = frames
            .iter()
            .zip(frames.iter().skip(1))
            .all(|(&a, &b)| u32::from(b) == u32::from(a) + 1);
        match frames.first() {
            Some(&first) if consecutive => Times::Uniform {
                first,
                count: frames.len(),
            },
            Some(_)
                if Self::gaps_bytes(frames) < Self::packed_bytes(frames)
                    && Self::gaps_bytes(frames) < Self::marked_bytes(frames) =>
            {
                Times::Gaps {
                    frames: frames.to_vec(),
                }
            }
            Some(&first) if Self::marked_bytes(frames) < Self::packed_bytes(frames) => {
                let mut marks = vec![0u8; Self::marked_bytes(frames) - 2];
                for &f in frames {
                    let k = usize::from(f - first);
                    marks[k / 8] |= 1 << (k % 8);
                }
                Self::from_marks(first, marks)
            }
            _ => {
                let last = frames.last().copied().unwrap_or(0);
                let bits = (u16::BITS - last.leading_zeros()).max(1) as u8;
                let mut stream = Vec::new();
                for (i, &f) in frames.iter().enumerate() {
                    write_bits(&mut stream, i * usize::from(bits), u32::from(f), bits);
                }
                Times::Frames {
                    count: frames.len(),
                    bits,
                    stream,
                }
            }
        }
    }

    /// Marked times as stored: the frames read out of the marks.
    fn from_marks(first: u16, marks: Vec<u8>) -> Self {
        let frames = (0..marks.len() * 8)
            .filter(|&k| marks[k / 8] >> (k % 8) & 1 == 1)
            .map(|k| first + k as u16)
            .collect();
        Times::Marked { marks, frames }
    }

    /// Bytes of `frames` marked: the first frame, and a bit a frame from it to the last.
    fn marked_bytes(frames: &[u16]) -> usize {
        match (frames.first(), frames.last()) {
            (Some(&first), Some(&last)) => 2 + (usize::from(last - first) + 1).div_ceil(8),
            _ => 2,
        }
    }

    /// Bits each gap between `frames` takes less one: as many as the widest needs.
    fn gap_bits(frames: &[u16]) -> u8 {
        let widest = (frames.windows(2))
            .map(|w| w[1].saturating_sub(w[0]).saturating_sub(1))
            .max()
            .unwrap_or(0);
        (u16::BITS - widest.leading_zeros()) as u8
    }

    /// Bytes of `frames` as gaps: the first frame, the width and the gaps.
    fn gaps_bytes(frames: &[u16]) -> usize {
        let gaps = frames.len().saturating_sub(1);
        3 + (gaps * usize::from(Self::gap_bits(frames))).div_ceil(8)
    }

    /// Bytes of `frames` packed in as many bits as the last one needs, and the width.
    fn packed_bytes(frames: &[u16]) -> usize {
        let last = frames.last().copied().unwrap_or(0);
        let bits = (u16::BITS - last.leading_zeros()).max(1) as usize;
        1 + (frames.len() * bits).div_ceil(8)
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Times::Uniform { count, .. } | Times::Frames { count, .. } => *count,
            Times::Marked { frames, .. } | Times::Gaps { frames, .. } => frames.len(),
            Times::Seconds(s) => s.len(),
        }
    }

    /// Bytes stored: the first frame of uniform times (the count is the group header's); the
    /// width and the bits of packed frames.
    pub(super) fn bytes(&self) -> usize {
        match self {
            Times::Uniform { .. } => 2,
            Times::Marked { marks, .. } => 2 + marks.len(),
            Times::Gaps { frames, .. } => Self::gaps_bytes(frames),
            Times::Frames { count, bits, .. } => 1 + (count * usize::from(*bits)).div_ceil(8),
            Times::Seconds(s) => s.len() * 4,
        }
    }

    #[inline]
    pub(super) fn at(&self, i: usize, frame_secs: f32) -> f32 {
        match self {
            Times::Uniform { first, .. } => (f32::from(*first) + i as f32) * frame_secs,
            Times::Marked { frames, .. } | Times::Gaps { frames, .. } => {
                f32::from(frames[i]) * frame_secs
            }
            Times::Frames { bits, stream, .. } => {
                let window = read_window(stream, i * usize::from(*bits));
                (window & ((1u64 << bits) - 1)) as f32 * frame_secs
            }
            Times::Seconds(s) => s[i],
        }
    }

    /// The interval `t` falls in, worked out where the times are uniform (`locate_key` checks
    /// it, so rounding at a key costs one more look).
    fn guess(&self, t: f32, frame_secs: f32) -> Option<usize> {
        match self {
            Times::Uniform { first, .. } if frame_secs > 0.0 && t.is_finite() => {
                let frame = (t / frame_secs).floor() - f32::from(*first);
                (frame >= 0.0).then_some(frame as usize)
            }
            _ => None,
        }
    }
}

/// Quantized tracks of a group: three components a key, each a whole number of steps above
/// the track's minimum. The widest component takes 3 to 19 bits, chosen per track by the error
/// it leaves at the joint's reach (as ACL chooses its bit rates); the others as many as keep
/// their steps no coarser (none for a component that holds still). Packed key-major: row `r` is
/// `row_bits` bits from bit `r * row_bits` of `stream`, low bits first (`LANES_WINDOW` spare
/// bytes at the end, so that a row's reads never run off it).
#[derive(Clone, Debug, Default)]
pub(super) struct Packed {
    pub(super) min: Vec<Vec3>,
    /// The track's range over `2^bits - 1`: what one step is worth.
    pub(super) step: Vec<Vec3>,
    /// Bytes each track's range takes stored (`RANGE_BYTES` or `UNIT_RANGE_BYTES`).
    pub(super) range_bytes: usize,
    pub(super) row_bits: usize,
    pub(super) stream: Vec<u8>,
    /// Where each track's fields sit in a row, worked out from its components' widths
    /// (`Packed::fields`; the widths are what the track's header stores).
    pub(super) fields: Vec<Fields>,
    /// How a decoded row lies (`Layout`), and its places four at a time (`Lanes`): worked out
    /// at pack, not stored.
    pub(super) layout: Layout,
    pub(super) lanes: Vec<Lanes>,
}

/// How a decoded row's components lie: translations and scales track after track (x, y and z:
/// a row of `Vec3`), rotations four tracks a block (x, y and z of a `runtime::Block`). A row is
/// decoded four places at a time (`Lanes`), in this order, with no shuffle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum Layout {
    #[default]
    Tracks,
    Blocks,
}

impl Layout {
    /// Where component `c` of track `k` lies.
    #[inline(always)]
    fn place(self, k: usize, c: usize) -> usize {
        match self {
            Layout::Tracks => 3 * k + c,
            Layout::Blocks => (k / 4) * 12 + c * 4 + k % 4,
        }
    }

    /// Places a row of `n` tracks takes: whole groups of four.
    pub(super) fn len(self, n: usize) -> usize {
        match self {
            Layout::Tracks => (3 * n).next_multiple_of(4),
            Layout::Blocks => blocks(n) * 12,
        }
    }
}

/// One track's place in a row: its first bit, and each component's shift and mask within the
/// 64 bits read from there. Worked out once, so that a row's tracks decode independently.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fields {
    offset: u32,
    shift: [u32; 3],
    mask: [u32; 3],
}

/// Four places of a decoded row (`Layout`), as they are read from any row: the byte within
/// the row (as if it began at a whole byte) where the first place's bits begin, each place's
/// byte from there, its mask there (its width's ones, moved up to its first bit within that
/// byte), its minimum, and its step divided by two to the power of that bit. The masked bits
/// are the whole number of steps times that power of two, so `min + step * masked` is the value
/// to the bit (powers of two scale floats exactly; `quantize` keeps steps far from the smallest
/// normal float), with no shift per place. Spare places are zero.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Lanes {
    first: u32,
    offset: [u8; 4],
    mask: [u32; 4],
    min: Vec4,
    step: Vec4,
}

/// Bytes read for four places, from their first byte: any offset a `u8` holds and the 8 bytes
/// from it, so that no place's read is checked on its own. (Four places begin within 22 bytes
/// of each other: four tracks' same component, at most three 57-bit keys apart.) A packed
/// stream keeps this many spare bytes past its last row.
pub(super) const LANES_WINDOW: usize = 256 + 8;

impl Lanes {
    /// The four places' values in the row whose bits begin at bit `shift` (0 to 7) of `row`.
    #[inline(always)]
    fn values(&self, row: &[u8], shift: u32) -> Vec4 {
        // One look for the four places' bytes (a stream keeps `LANES_WINDOW` spare bytes, so
        // it never fails on a row of its own).
        let first = self.first as usize;
        let Some(window) = row.get(first..first + LANES_WINDOW) else {
            return self.min;
        };
        // A place's at most 19 bits begin at most 14 bits into the 8 bytes read from its
        // byte, whatever the row's first bit.
        let lane = |l: usize| {
            let at = usize::from(self.offset[l]);
            let mut eight = [0; 8];
            eight.copy_from_slice(&window[at..at + 8]);
            ((u64::from_le_bytes(eight) >> shift) as u32 & self.mask[l]) as i32 as f32
        };
        self.min + self.step * Vec4::new(lane(0), lane(1), lane(2), lane(3))
    }
}

/// Fewest and most bits the widest component of a quantized track takes.
pub(super) const MIN_BITS: u8 = 3;
pub(super) const MAX_BITS: u8 = 19;

impl Packed {
    pub(super) fn len(&self) -> usize {
        self.fields.len()
    }

    /// Bytes as stored: each track's range and the rows' bits.
    pub(super) fn bytes(&self, rows: usize) -> usize {
        self.len() * self.range_bytes + (self.row_bits * rows).div_ceil(8)
    }

    /// Each track's `Fields`, from the widths of its components.
    pub(super) fn fields(bits: &[[u8; 3]]) -> Vec<Fields> {
        let mut offset = 0;
        bits.iter()
            .map(|&[bx, by, bz]| {
                let (bx, by, bz) = (u32::from(bx), u32::from(by), u32::from(bz));
                let mask = |b: u32| ((1u64 << b) - 1) as u32;
                let fields = Fields {
                    offset,
                    shift: [0, bx, bx + by],
                    mask: [mask(bx), mask(by), mask(bz)],
                };
                offset += bx + by + bz;
                fields
            })
            .collect()
    }

    /// Each track's components laid out as `layout` decodes a row (`Lanes`).
    pub(super) fn lay_out(&mut self, layout: Layout) {
        let n = self.len();
        self.layout = layout;
        // Each place's first bit in a row, in place order (spare places: none).
        let mut bits = vec![None; layout.len(n)];
        for (k, f) in self.fields.iter().enumerate() {
            for c in 0..3 {
                bits[layout.place(k, c)] = Some((k, c, f.offset + f.shift[c]));
            }
        }
        self.lanes = (bits.chunks_exact(4))
            .map(|four| {
                let first = four.iter().flatten().map(|&(.., bit)| bit / 8).min();
                let mut lanes = Lanes {
                    first: first.unwrap_or(0),
                    ..Lanes::default()
                };
                for (l, place) in four.iter().enumerate() {
                    let Some((k, c, bit)) = *place else { continue };
                    let offset = bit / 8 - lanes.first;
                    debug_assert!(offset <= 22, "four places begin within 22 bytes");
                    lanes.offset[l] = offset as u8;
                    lanes.mask[l] = self.fields[k].mask[c] << (bit % 8);
                    lanes.min[l] = self.min[k][c];
                    lanes.step[l] = self.step[k][c] / (1u32 << (bit % 8)) as f32;
                }
                lanes
            })
            .collect();
    }

    /// Row `row`'s bits: the stream from the byte holding its first bit, and that bit's place
    /// in the byte (0 to 7).
    #[inline(always)]
    fn row_at(&self, row: usize) -> (&[u8], u32) {
        let first = row * self.row_bits;
        (
            self.stream.get(first / 8..).unwrap_or(&[]),
            (first % 8) as u32,
        )
    }

    /// Decodes row `row` into `out` (one value per track, in track order), a track at a time:
    /// the reference the two passes are tested against.
    #[cfg(test)]
    pub(super) fn decode(&self, row: usize, out: &mut [Vec3]) {
        let base = row * self.row_bits;
        let tracks = self.min.iter().zip(&self.step).zip(&self.fields);
        for (o, ((&min, &step), f)) in out.iter_mut().zip(tracks) {
            let window = read_window(&self.stream, base + f.offset as usize);
            let field = |c: usize| ((window >> f.shift[c]) as u32 & f.mask[c]) as i32 as f32;
            *o = min + step * Vec3::new(field(0), field(1), field(2));
        }
    }

    /// Decodes row `row` of `Layout::Tracks` into `out` (one value per track, in track order),
    /// four components at a time.
    #[inline]
    pub(super) fn decode_vectors(&self, row: usize, out: &mut [Vec3]) {
        let (bytes, first) = self.row_at(row);
        let out: &mut [f32] = bytemuck::cast_slice_mut(out);
        let mut chunks = out.chunks_exact_mut(4);
        let mut lanes = self.lanes.iter();
        for (o, l) in chunks.by_ref().zip(lanes.by_ref()) {
            o.copy_from_slice(&l.values(bytes, first).to_array());
        }
        let tail = chunks.into_remainder();
        if let Some(l) = lanes.next() {
            tail.copy_from_slice(&l.values(bytes, first).to_array()[..tail.len()]);
        }
    }

    /// Decodes row `row` of `Layout::Blocks` into `out`'s first blocks: the rotations' x, y
    /// and z four tracks at a time, and w rebuilt from unit length (`rotations_from_xyz`).
    #[inline]
    pub(super) fn decode_rotations(&self, row: usize, out: &mut [Block]) {
        let (bytes, first) = self.row_at(row);
        for (o, xyz) in out.iter_mut().zip(self.lanes.chunks_exact(3)) {
            let c = |c: usize| xyz[c].values(bytes, first);
            *o = rotations_from_xyz([c(0), c(1), c(2), Vec4::ZERO]);
        }
    }
}

/// A kind's packed tracks in segments of `rows` rows (ACL's segments; the last may be shorter),
/// each quantizing the tracks over its own rows: a track quiet over a segment takes few bits or
/// none there. One segment spans the whole group where that is smaller.
#[derive(Clone, Debug, Default)]
pub(super) struct Segments {
    pub(super) rows: usize,
    pub(super) parts: Vec<Packed>,
}

/// Bytes segment `segment` of a kind stores per packed track besides its range and keys: the
/// three widths, 5 bits each, after the first segment (whose widths are in the track's header).
pub(super) const fn segment_widths_bytes(segment: usize) -> usize {
    if segment > 0 { 2 } else { 0 }
}
/// Bytes of a kind's segment length, stored when it has more than one segment.
pub(super) const SEGMENT_HEADER_BYTES: usize = 1;

impl Segments {
    /// Packed tracks (each segment has all of them).
    pub(super) fn len(&self) -> usize {
        self.parts.first().map_or(0, Packed::len)
    }

    /// Bytes as stored for a group of `rows` rows: each segment's ranges and bits, the later
    /// segments' widths, and the segment length when there is more than one.
    pub(super) fn bytes(&self, rows: usize) -> usize {
        let per = self.rows.max(1);
        let parts: usize = (self.parts.iter().enumerate())
            .map(|(s, p)| {
                p.bytes(rows.saturating_sub(s * per).min(per)) + p.len() * segment_widths_bytes(s)
            })
            .sum();
        parts
            + if self.parts.len() > 1 {
                SEGMENT_HEADER_BYTES
            } else {
                0
            }
    }

    /// Decodes row `row` of the group into `out` (one value per packed track), a track at a
    /// time (`Packed::decode`).
    #[cfg(test)]
    pub(super) fn decode(&self, row: usize, out: &mut [Vec3]) {
        if let Some((part, row)) = self.part(row) {
            part.decode(row, out);
        }
    }

    /// The segment holding row `row` of the group, and the row within it.
    #[inline]
    pub(super) fn part(&self, row: usize) -> Option<(&Packed, usize)> {
        match self.parts.as_slice() {
            // One segment (the most common): no division.
            [whole] => Some((whole, row)),
            parts => {
                let per = self.rows.max(1);
                parts.get(row / per).map(|part| (part, row % per))
            }
        }
    }
}

/// The 57 or more bits of `bytes` from bit `at`, low bits first.
#[inline(always)]
fn read_window(bytes: &[u8], at: usize) -> u64 {
    let b = at / 8;
    // The spare bytes make this the whole window; past them (never built) it reads zeros.
    let eight = match bytes.get(b..b + 8) {
        Some(eight) => <[u8; 8]>::try_from(eight).unwrap_or([0; 8]),
        None => [0; 8],
    };
    u64::from_le_bytes(eight) >> (at % 8)
}

/// Writes `bits` bits of `value` at bit `at` of `bytes` (grown as needed, keeping eight spare
/// bytes past the last bit written).
pub(super) fn write_bits(bytes: &mut Vec<u8>, at: usize, value: u32, bits: u8) {
    bytes.resize(bytes.len().max((at + usize::from(bits)).div_ceil(8) + 8), 0);
    for k in 0..usize::from(bits) {
        if value >> k & 1 == 1 {
            let bit = at + k;
            bytes[bit / 8] |= 1 << (bit % 8);
        }
    }
}

/// The translation or scale tracks of a group, key-major: the packed tracks, then the float
/// ones.
#[derive(Clone, Debug, Default)]
pub(super) struct VectorTracks {
    /// The packed tracks' joints, then the float tracks'.
    pub(super) joints: Vec<u32>,
    pub(super) packed: Segments,
    pub(super) f_rows: Vec<Vec3>,
}

/// The rotation tracks of a group, key-major: packed tracks (x, y and z of the quaternion with
/// w made positive, w rebuilt from unit length, as ACL stores them), then float ones.
#[derive(Clone, Debug, Default)]
pub(super) struct RotationTracks {
    pub(super) joints: Vec<u32>,
    pub(super) packed: Segments,
    /// The last `frames.len()` packed tracks are stored in a frame of their own, `(left,
    /// right)`: each key as `left⁻¹ * key * right⁻¹` (compress.rs says which and why).
    pub(super) frames: Vec<(Quat, Quat)>,
    /// Worked out from `frames` (not stored): from block `first_framed_block` on, the frames'
    /// left and right rotations four tracks a block, identity in the lanes of the others.
    pub(super) first_framed_block: usize,
    pub(super) frame_blocks: Vec<(Block, Block)>,
    pub(super) f_rows: Vec<Quat>,
}

impl RotationTracks {
    pub(super) fn new(
        joints: Vec<u32>,
        (packed, frames): (Segments, Vec<(Quat, Quat)>),
        f_rows: Vec<Quat>,
    ) -> Self {
        let first = packed.len() - frames.len();
        let first_framed_block = first / 4;
        let frame_blocks = (first_framed_block..blocks(packed.len()))
            .map(|b| {
                let (mut left, mut right) = (IDENTITY_BLOCK, IDENTITY_BLOCK);
                for lane in 0..4 {
                    let k = b * 4 + lane;
                    if let Some((l, r)) = k.checked_sub(first).and_then(|i| frames.get(i)) {
                        for c in 0..4 {
                            left[c][lane] = l.to_array()[c];
                            right[c][lane] = r.to_array()[c];
                        }
                    }
                }
                (left, right)
            })
            .collect();
        Self {
            joints,
            packed,
            frames,
            first_framed_block,
            frame_blocks,
            f_rows,
        }
    }
}

/// `a * b` for four quaternions a block (the Hamilton product, lane by lane).
#[inline(always)]
fn multiply_blocks([ax, ay, az, aw]: &Block, [bx, by, bz, bw]: &Block) -> Block {
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Tracks of one clip that share their (reduced) key times, stored key-major: the keys a sample
/// needs sit side by side, in the order they are needed.
#[derive(Clone, Debug)]
pub(super) struct CompressedGroup {
    pub(super) times: Times,
    pub(super) step: bool,
    pub(super) translations: VectorTracks,
    pub(super) scales: VectorTracks,
    pub(super) rotations: RotationTracks,
}

/// Bytes of a group's header (key count, interpolation, track counts: 8). Each kind's tracks
/// (`track_header_bytes`) are stored in ascending joint order within each of packed, framed
/// and float tracks (the order `compress.rs` assembles them in), so that the joints may be a
/// set. Packed tracks add their range: f32 minimum and bfloat16 extent for translations and
/// scales (18), the minimum in 16-bit steps of [-1, 1] and a byte of extent for rotations (9)
/// (`quantize::stored_extent`).
pub(super) const GROUP_HEADER_BYTES: usize = 8;
pub(super) const RANGE_BYTES: usize = 18;
pub(super) const UNIT_RANGE_BYTES: usize = 9;
/// Bits of each track's own header: its components' widths (5 bits each) and its frame (none,
/// left or both; a fourth value marks a float track).
const TRACK_HEADER_BITS: usize = 17;

/// Bytes of the headers of a kind's tracks driving `joints` of a skeleton of `joint_count`:
/// a bit saying how the joints are stored, then each joint's index in as many bits as the
/// largest needs, or a bit a skeleton joint set where a track is (whichever is smaller), and
/// each track's own header (`TRACK_HEADER_BITS`). None for no tracks.
pub(super) fn track_header_bytes(joints: &[u32], joint_count: usize) -> usize {
    if joints.is_empty() {
        return 0;
    }
    let index_bits = (usize::BITS - joint_count.saturating_sub(1).leading_zeros()).max(1);
    let listed = joints.len() * index_bits as usize;
    (1 + listed.min(joint_count) + joints.len() * TRACK_HEADER_BITS).div_ceil(8)
}

/// A rotation of a track's frame: x, y and z in 16-bit steps of [-1, 1] (w rebuilt).
pub(crate) const FRAME_ROTATION_BYTES: usize = 6;

/// Bytes of rotation tracks' frames: the left rotation, and the right one unless it is the
/// identity (the track header's frame kind says which).
pub(crate) fn frame_bytes(frames: &[(Quat, Quat)]) -> usize {
    (frames.iter())
        .map(|(_, right)| FRAME_ROTATION_BYTES * if *right == Quat::IDENTITY { 1 } else { 2 })
        .sum()
}

impl CompressedGroup {
    /// Bytes as stored, for a skeleton of `joint_count` joints.
    pub(super) fn bytes(&self, joint_count: usize) -> usize {
        let rows = self.times.len();
        let r = &self.rotations;
        let headers = |joints: &[u32]| track_header_bytes(joints, joint_count);
        GROUP_HEADER_BYTES
            + self.times.bytes()
            + headers(&self.translations.joints)
            + headers(&self.scales.joints)
            + headers(&r.joints)
            + self.translations.packed.bytes(rows)
            + self.scales.packed.bytes(rows)
            + r.packed.bytes(rows)
            + frame_bytes(&r.frames)
            + (self.translations.f_rows.len() + self.scales.f_rows.len()) * 12
            + r.f_rows.len() * 16
    }

    pub(super) fn track_count(&self) -> usize {
        self.translations.joints.len() + self.scales.joints.len() + self.rotations.joints.len()
    }
}

/// A clip stored as quantized, reduced keys; sampled with `sample_compressed`.
#[derive(Clone, Debug)]
pub struct CompressedClip {
    pub(super) name: String,
    pub(super) joint_count: usize,
    pub(super) duration_secs: f32,
    /// Seconds per frame of the grid every key time lies on (0 without one).
    pub(super) frame_secs: f32,
    pub(super) groups: Vec<CompressedGroup>,
    /// Whether the clip drives every property of every joint.
    pub(super) covers_all: bool,
    pub(super) id: u64,
}

impl CompressedClip {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn duration_secs(&self) -> f32 {
        self.duration_secs
    }

    pub fn joint_count(&self) -> usize {
        self.joint_count
    }

    /// Bytes of the keys, times and track headers.
    pub fn bytes(&self) -> usize {
        self.groups.iter().map(|g| g.bytes(self.joint_count)).sum()
    }

    /// Keys kept over all tracks.
    pub fn key_count(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.times.len() * g.track_count())
            .sum()
    }

    /// Quantized tracks stored in more than one segment (each over its own range).
    pub fn segmented_tracks(&self) -> usize {
        let kinds = |g: &CompressedGroup| {
            [
                &g.translations.packed,
                &g.scales.packed,
                &g.rotations.packed,
            ]
            .into_iter()
            .filter(|p| p.parts.len() > 1)
            .map(Segments::len)
            .sum::<usize>()
        };
        self.groups.iter().map(kinds).sum()
    }

    /// Whether key times are stored as frame numbers (the clip is keyed on a frame grid).
    pub fn on_frame_grid(&self) -> bool {
        self.frame_secs > 0.0
    }
}

impl CompressedClip {
    /// The `id` of the clip this was compressed from.
    pub fn source_id(&self) -> u64 {
        self.id
    }

    pub(crate) fn covers_all(&self) -> bool {
        self.covers_all
    }

    pub(crate) fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Samples group `g` at `t` into `pose`, decoding into `cursor` only the rows it lacks.
    pub(crate) fn sample_group(
        &self,
        g: usize,
        t: f32,
        cursor: &mut GroupCursor,
        pose: &mut [super::Transform],
    ) {
        let group = &self.groups[g];
        let times = &group.times;
        let at = locate_key(
            times.len(),
            |i| times.at(i, self.frame_secs),
            t,
            &mut cursor.hint,
            times.guess(t, self.frame_secs),
        );
        let i = at.i as usize;
        let (next, u) = if at.hold || group.step {
            (i, 0.0)
        } else {
            (i + 1, at.u)
        };
        cursor.decode(group, i, next);
        super::runtime::Rows {
            translation_joints: &group.translations.joints,
            translations: (&cursor.translations[0], &cursor.translations[1]),
            scale_joints: &group.scales.joints,
            scales: (&cursor.scales[0], &cursor.scales[1]),
            rotation_joints: &group.rotations.joints,
            rotations: &cursor.rotations[0],
            theta: &cursor.theta,
            perp: &cursor.perp,
        }
        .interpolate(u, next != i, pose);
    }
}

/// One group's decoded rows in a sampling context: rows `rows.0` and `rows.1` of the group, as
/// `Rows` reads them, with the interval's arcs worked out when the rows are decoded (the raw
/// clip's are worked out at load), so a frame between the same keys costs what a raw clip's
/// does. Moving on by one interval, forward or backward, decodes one row (the row the two
/// intervals share is kept); anything else decodes both.
#[derive(Clone, Debug)]
pub(crate) struct GroupCursor {
    /// The decoded rows (none before the first sample).
    pub(super) rows: Option<(usize, usize)>,
    /// Rows decoded so far (`ClipCursor::rows_decoded`).
    pub(super) decoded: u64,
    /// The interval the last sample fell in (`locate_key`'s hint).
    pub(super) hint: u32,
    pub(super) translations: [Vec<Vec3>; 2],
    pub(super) scales: [Vec<Vec3>; 2],
    /// Unit quaternions (to rounding), four tracks a block (`runtime::Block`); the end row in
    /// the start row's hemisphere.
    pub(super) rotations: [Vec<Block>; 2],
    /// Per block of rotation tracks, the arcs from the start row to the end row
    /// (`runtime::arcs`).
    pub(super) theta: Vec<Vec4>,
    pub(super) perp: Vec<Block>,
}

impl GroupCursor {
    pub(crate) fn new(clip: &CompressedClip, g: usize) -> Self {
        let group = &clip.groups[g];
        let (t, s, r) = (
            group.translations.joints.len(),
            group.scales.joints.len(),
            group.rotations.joints.len(),
        );
        Self {
            rows: None,
            decoded: 0,
            hint: 0,
            translations: [vec![Vec3::ZERO; t], vec![Vec3::ZERO; t]],
            scales: [vec![Vec3::ONE; s], vec![Vec3::ONE; s]],
            rotations: [
                vec![IDENTITY_BLOCK; blocks(r)],
                vec![IDENTITY_BLOCK; blocks(r)],
            ],
            theta: vec![Vec4::ZERO; blocks(r)],
            perp: vec![[Vec4::ZERO; 4]; blocks(r)],
        }
    }

    pub(super) fn decode(&mut self, group: &CompressedGroup, i: usize, next: usize) {
        if self.rows == Some((i, next)) {
            return;
        }
        match self.rows {
            // Forward by one interval: the end row becomes the start row.
            Some((_, end)) if end == i && next == i + 1 => {
                self.swap_rows();
                self.decode_row(group, next, 1);
            }
            // Backward by one: the start row becomes the end row (its sign is the start row's,
            // which the arcs flip into the new start row's hemisphere as they would a fresh one).
            Some((start, _)) if start == next && next == i + 1 => {
                self.swap_rows();
                self.decode_row(group, i, 0);
            }
            _ => {
                self.decode_row(group, i, 0);
                self.decode_row(group, next, 1);
            }
        }
        // The end row in the start row's hemisphere, and the interval's arcs.
        let [a, b] = &mut self.rotations;
        super::runtime::arcs(a, b, &mut self.theta, &mut self.perp);
        self.rows = Some((i, next));
    }

    /// The start row and the end row trade places.
    fn swap_rows(&mut self) {
        self.translations.swap(0, 1);
        self.scales.swap(0, 1);
        self.rotations.swap(0, 1);
    }

    pub(super) fn decode_row(&mut self, group: &CompressedGroup, row: usize, into: usize) {
        self.decoded += 1;
        let vectors = |v: &VectorTracks, out: &mut Vec<Vec3>| {
            let (q, f) = (v.packed.len(), v.joints.len() - v.packed.len());
            if let Some((part, row)) = v.packed.part(row) {
                part.decode_vectors(row, &mut out[..q]);
            }
            out[q..].copy_from_slice(&v.f_rows[row * f..row * f + f]);
        };
        vectors(&group.translations, &mut self.translations[into]);
        vectors(&group.scales, &mut self.scales[into]);
        let r = &group.rotations;
        let (q, f) = (r.packed.len(), r.joints.len() - r.packed.len());
        let out = &mut self.rotations[into];
        if let Some((part, row)) = r.packed.part(row) {
            part.decode_rotations(row, out);
            let framed = out.iter_mut().skip(r.first_framed_block);
            for (o, (left, right)) in framed.zip(&r.frame_blocks) {
                *o = multiply_blocks(&multiply_blocks(left, o), right);
            }
        }
        // Float keys are stored normalised: both kinds are unit, as the arcs need.
        for (k, key) in (q..).zip(&r.f_rows[row * f..row * f + f]) {
            let block = &mut out[k / 4];
            for (c, value) in key.to_array().into_iter().enumerate() {
                block[c][k % 4] = value;
            }
        }
    }
}

/// `rotation_from_xyz` of each lane of a block (its w lanes are ignored): the same operations,
/// four tracks at a time.
#[inline(always)]
fn rotations_from_xyz([x, y, z, _]: Block) -> Block {
    let n2 = x * x + y * y + z * z;
    let unit = n2.cmple(Vec4::ONE);
    let w = Vec4::select(unit, (Vec4::ONE - n2).sqrt(), Vec4::ZERO);
    // Keys are stored within unit length (to rounding): the divisions are skipped unless a lane
    // came back over it.
    if unit.all() {
        return [x, y, z, w];
    }
    let length = n2.sqrt();
    let scaled = |c: Vec4| Vec4::select(unit, c, c / length);
    [scaled(x), scaled(y), scaled(z), w]
}

/// The unit quaternion whose x, y and z are `v` and whose w is positive (rebuilt from unit
/// length; a `v` longer than one from rounding is brought back to it, with w zero).
#[inline]
pub(super) fn rotation_from_xyz(v: Vec3) -> Vec4 {
    let n2 = v.length_squared();
    if n2 <= 1.0 {
        v.extend((1.0 - n2).sqrt())
    } else {
        (v / n2.sqrt()).extend(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::{Times, track_header_bytes};

    #[test]
    fn track_headers_store_their_joints_as_a_list_or_a_set_whichever_is_smaller() {
        // 26 joints: an index takes 5 bits. One track: a bit, its index and its 17 bits (23
        // bits, 3 bytes); twenty: a bit, a set of 26 bits (smaller than 100 bits of indices)
        // and 340 bits (367 bits, 46 bytes); none: nothing.
        assert_eq!(track_header_bytes(&[3], 26), 3);
        let twenty: Vec<u32> = (3..23).collect();
        assert_eq!(track_header_bytes(&twenty, 26), 46);
        assert_eq!(track_header_bytes(&[], 26), 0);
        // A skeleton of one joint: its index still takes a bit.
        assert_eq!(track_header_bytes(&[0], 1), 3);
    }

    #[test]
    fn four_rotations_from_xyz_are_each_lane_s_own_to_the_bit() {
        use glam::{Vec3, Vec4};
        // Lanes: within unit length, just over it (rounding), at it, and far over it (a lane's
        // x, y and z; its w is ignored).
        let lanes = [
            Vec3::new(0.1, -0.2, 0.3),
            Vec3::new(0.6, 0.6, 0.529_150_3),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(-0.9, 0.8, 0.1),
        ];
        let over = |v: Vec3| v.length_squared() > 1.0;
        assert!(over(lanes[1]) && over(lanes[3]) && !over(lanes[0]) && !over(lanes[2]));
        let expect = lanes.map(super::rotation_from_xyz);
        let bits = |q: Vec4| q.to_array().map(f32::to_bits);
        // Every mix of lanes over and within unit length, and blocks all within it (where the
        // divisions are skipped).
        for block in [
            [0, 1, 2, 3],
            [0, 2, 0, 2],
            [2, 0, 2, 2],
            [3, 3, 3, 3],
            [1, 0, 0, 0],
        ] {
            let c = |f: fn(Vec3) -> f32| Vec4::from_array(block.map(|l| f(lanes[l])));
            let [x, y, z, w] =
                super::rotations_from_xyz([c(|v| v.x), c(|v| v.y), c(|v| v.z), Vec4::NAN]);
            for (lane, &l) in block.iter().enumerate() {
                let got = Vec4::new(x[lane], y[lane], z[lane], w[lane]);
                assert_eq!(bits(got), bits(expect[l]), "block {block:?}, lane {lane}");
            }
        }
    }

    #[test]
    fn consecutive_frames_are_uniform_and_others_marked_gapped_or_packed_whichever_is_smaller() {
        let secs = 1.0 / 120.0;
        // Each key's time is its frame's, on a grid of `secs`.
        let reads_back = |times: &Times, frames: &[u16], secs: f32| {
            for (i, &f) in frames.iter().enumerate() {
                assert_eq!(times.at(i, secs), f32::from(f) * secs, "key {i}");
            }
        };
        let uniform = Times::frames(&[7, 8, 9, 10]);
        assert!(matches!(uniform, Times::Uniform { first: 7, count: 4 }));
        assert_eq!(uniform.bytes(), 2);
        assert_eq!(uniform.at(2, secs), 9.0 * secs);
        // 0.5 of the way from frame 8 to 9 is interval 1; before the first frame, none.
        assert_eq!(uniform.guess(8.5 * secs, secs), Some(1));
        assert_eq!(uniform.guess(3.0 * secs, secs), None);

        // A 24 Hz bake on a 120 Hz grid with a gap (the Fox's Run): 0, 5, ..., 80, 104, ...
        let frames: Vec<u16> = (0..17)
            .map(|k| k * 5)
            .chain((0..8).map(|k| 104 + k * 5))
            .collect();
        // 24 gaps, of 5 frames and one of 24, less one (4 and 23) take 5 bits each (120 bits,
        // 15 bytes), with the first frame and the width 18 bytes: fewer than frames 0 to 139
        // marked (140 bits, 18 bytes, and the first frame 2) or 25 frames in 8 bits (25 bytes)
        // and the width.
        let gaps = Times::frames(&frames);
        assert!(matches!(&gaps, Times::Gaps { .. }));
        assert_eq!(gaps.bytes(), 3 + 15);
        assert_eq!(gaps.len(), 25);
        reads_back(&gaps, &frames, secs);
        assert_eq!(gaps.guess(0.5, secs), None);
        // Frames 0 to 99 but for 3 and 50: marked in 100 bits (13 bytes) and the first frame,
        // 15 bytes; as gaps, 97 of a bit each (13 bytes) and 3, 16.
        let nearly: Vec<u16> = (0..100).filter(|&f| f != 3 && f != 50).collect();
        let marked = Times::frames(&nearly);
        assert!(matches!(&marked, Times::Marked { marks, .. } if marks.len() == 13));
        assert_eq!(marked.bytes(), 2 + 13);
        assert_eq!(marked.len(), 98);
        reads_back(&marked, &nearly, secs);
        // Few keys far apart: packed, 8 bits a frame to 200 (4 bytes; as gaps of 86 and 109
        // less one, 5).
        let sparse = [3u16, 90, 200];
        let packed = Times::frames(&sparse);
        assert!(matches!(packed, Times::Frames { bits: 8, .. }));
        assert_eq!(packed.bytes(), 1 + 3);
        reads_back(&packed, &sparse, secs);
        // Widths that are not whole bytes: three frames to 1000 take 10 bits each, 5 bytes in
        // all (as gaps of 496 and 499, 9 bits each and 6 bytes).
        let wide = [3u16, 500, 1000];
        let packed = Times::frames(&wide);
        assert!(matches!(packed, Times::Frames { bits: 10, .. }));
        assert_eq!(packed.bytes(), 1 + 4);
        reads_back(&packed, &wide, 1.0);
    }
}
