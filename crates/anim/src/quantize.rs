//! Quantizing a compressed clip's tracks (compress.rs's second step, ACL's variable bit rates):
//! each track's keys as whole steps of its own range, the widest component in the fewest bits
//! its error allows, the others no coarser, and the tracks bit-packed key-major (`Packed`).

use glam::Vec3;

use super::compressed::{
    LANES_WINDOW, Layout, MAX_BITS, MIN_BITS, Packed, RANGE_BYTES, Segments, UNIT_RANGE_BYTES,
    segment_widths_bytes, write_bits,
};

/// How a quantized track's range is stored: f32 minimum and bfloat16 extent (translations and
/// scales, in the file's units), or the minimum in 16-bit steps of [-1, 1] and the extent in a
/// byte (quaternion components; `stored_extent`).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Range {
    Float,
    Unit16,
}

impl Range {
    pub(super) fn bytes(self) -> usize {
        match self {
            Range::Float => RANGE_BYTES,
            Range::Unit16 => UNIT_RANGE_BYTES,
        }
    }
}

/// One track's kept keys quantized: each key's three components in steps of `step` above `min`,
/// in `bits` bits each.
pub(super) struct Quantized {
    min: Vec3,
    pub(super) step: Vec3,
    bits: [u8; 3],
    keys: Vec<[u32; 3]>,
}

/// A component whose values span less than this holds still (no bits, its minimum): its
/// steps would come near the smallest normal float, which `Lanes` scales by up to 2^-7.
/// Nothing a clip moves is this small (2^-100, 7.9e-31).
const STILL_EXTENT: f32 = 1.0 / (1u128 << 100) as f32;

/// An extent as a range stores it, rounded up to what the stored code gives back, so that the
/// keys stay inside: for `Range::Float`, a bfloat16 (f32's exponent and the top 7 bits of its
/// fraction: at most 1/128 over); for `Range::Unit16`, a byte `c` standing for `2^((c - 239) /
/// 16)` (at most 1/23 over; from 3.2e-5, the grid's smallest extent of 1/32,767 rounded up, to
/// 2, the widest extent a component of [-1, 1] has). A coarser step than the keys' own may cost
/// the widest component a bit now and then; the byte or two a component saves is worth more on
/// all but long tracks.
fn stored_extent(e: f32, range: Range) -> f32 {
    if e <= 0.0 || !e.is_finite() {
        return e;
    }
    match range {
        Range::Float => {
            let up = f32::from_bits(e.to_bits().saturating_add(0xFFFF) & 0xFFFF_0000);
            if up.is_finite() { up } else { e }
        }
        Range::Unit16 => {
            let at = |c: i32| ((c - UNIT_EXTENT_ONE) as f32 / 16.0).exp2();
            let mut c = (16.0 * e.log2()).ceil() as i32 + UNIT_EXTENT_ONE;
            c = c.clamp(0, 255);
            while c < 255 && at(c) < e {
                c += 1;
            }
            at(c)
        }
    }
}

/// The code of a `Range::Unit16` extent of 1 (`stored_extent`).
const UNIT_EXTENT_ONE: i32 = 239;

/// `values` over their own range, the widest component in `bits` bits and each other in as
/// many as keep its step no coarser (none where it holds still).
pub(super) fn quantize(values: &[Vec3], bits: u8, range: Range) -> Quantized {
    let (min, max) = values.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| {
        (lo.min(*v), hi.max(*v))
    });
    let (min, max) = match range {
        Range::Float => (min, max),
        // Stored as 16-bit steps of [-1, 1], rounded outwards so the keys stay inside: 65,534
        // steps of 1/32,767, so that -1, 0 and 1 lie on the grid (a component that holds still
        // at 0, as most do, comes back as 0).
        Range::Unit16 => {
            let grid = |x: Vec3, round: fn(f32) -> f32| {
                ((x + 1.0) * 32767.0)
                    .map(round)
                    .clamp(Vec3::ZERO, Vec3::splat(65534.0))
                    / 32767.0
                    - 1.0
            };
            (grid(min, f32::floor), grid(max, f32::ceil))
        }
    };
    let extent = (max - min).to_array().map(|e| stored_extent(e, range));
    let finest = extent.iter().fold(0.0f32, |a, &e| a.max(e)) / ((1u32 << bits) - 1) as f32;
    let widths = extent.map(|e| {
        if e < STILL_EXTENT {
            0
        } else {
            // The fewest bits whose 2^b - 1 steps span e in steps of at most `finest`.
            (1..=bits)
                .find(|&b| e / ((1u32 << b) - 1) as f32 <= finest)
                .unwrap_or(bits)
        }
    });
    let steps: [f32; 3] = std::array::from_fn(|c| match widths[c] {
        0 => 0.0,
        b => extent[c] / ((1u32 << b) - 1) as f32,
    });
    let at = |v: f32, c: usize| {
        if steps[c] > 0.0 {
            let top = ((1u32 << widths[c]) - 1) as f32;
            ((v - min[c]) / steps[c]).round().clamp(0.0, top) as u32
        } else {
            0
        }
    };
    let keys = values
        .iter()
        .map(|v| [at(v.x, 0), at(v.y, 1), at(v.z, 2)])
        .collect();
    Quantized {
        min,
        step: Vec3::from(steps),
        bits: widths,
        keys,
    }
}

impl Quantized {
    pub(super) fn value(&self, k: usize) -> Vec3 {
        let [x, y, z] = self.keys[k];
        self.min + self.step * Vec3::new(x as f32, y as f32, z as f32)
    }

    /// Keys quantized.
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(super) fn key_bits(&self) -> usize {
        self.bits.iter().map(|&b| usize::from(b)).sum()
    }
}

/// `values` in segments of `rows` keys (ACL's segments; the last may be shorter), each in the
/// fewest bits (3 to 19 for its widest component) whose quantization passes `fits(q, first)`,
/// where `first` is the segment's first key; `None` if a segment has no such bits or the
/// segments take no fewer bytes than `float_bytes` a key as floats.
pub(super) fn fewest_bits(
    values: &[Vec3],
    rows: usize,
    (range, float_bytes): (Range, usize),
    fits: impl Fn(&Quantized, usize) -> bool,
) -> Option<Vec<Quantized>> {
    let rows = rows.max(1);
    let segments: Vec<Quantized> = (values.chunks(rows).enumerate())
        .map(|(s, part)| {
            (MIN_BITS..=MAX_BITS)
                .map(|bits| quantize(part, bits, range))
                .find(|q| fits(q, s * rows))
        })
        .collect::<Option<_>>()?;
    (segments_bits(&segments, range) < 8 * float_bytes * values.len()).then_some(segments)
}

/// Bits a track's quantized segments take stored: each segment's range, the later segments'
/// widths, and the keys.
pub(super) fn segments_bits(segments: &[Quantized], range: Range) -> usize {
    (segments.iter().enumerate())
        .map(|(s, q)| 8 * (range.bytes() + segment_widths_bytes(s)) + q.key_bits() * q.len())
        .sum()
}

/// Tracks' quantized segments (`fewest_bits` with the same `rows`: each track has as many)
/// packed segment by segment.
pub(super) fn pack_segments(tracks: &[Vec<Quantized>], rows: usize, range: Range) -> Segments {
    let count = tracks.first().map_or(1, Vec::len);
    let parts = (0..count)
        .map(|s| {
            let part: Vec<&Quantized> = tracks.iter().filter_map(|t| t.get(s)).collect();
            pack(&part, part.first().map_or(0, |q| q.len()), range)
        })
        .collect();
    Segments { rows, parts }
}

/// Tracks' quantized keys packed key-major (`Packed`).
pub(super) fn pack(tracks: &[&Quantized], rows: usize, range: Range) -> Packed {
    let row_bits: usize = tracks.iter().map(|t| t.key_bits()).sum();
    let mut bytes = vec![0u8; (row_bits * rows).div_ceil(8) + 8];
    let mut at = 0;
    for row in 0..rows {
        for t in tracks {
            for (c, bits) in t.keys[row].into_iter().zip(t.bits) {
                write_bits(&mut bytes, at, c, bits);
                at += usize::from(bits);
            }
        }
    }
    // The spare bytes four places are read with (`Lanes`).
    bytes.resize((row_bits * rows).div_ceil(8) + LANES_WINDOW, 0);
    let bits: Vec<[u8; 3]> = tracks.iter().map(|t| t.bits).collect();
    let mut packed = Packed {
        min: tracks.iter().map(|t| t.min).collect(),
        step: tracks.iter().map(|t| t.step).collect(),
        fields: Packed::fields(&bits),
        range_bytes: range.bytes(),
        row_bits,
        stream: bytes,
        ..Packed::default()
    };
    // Ranges of [-1, 1] are a unit quaternion's x, y and z: decoded four tracks a block.
    packed.lay_out(match range {
        Range::Float => Layout::Tracks,
        Range::Unit16 => Layout::Blocks,
    });
    packed
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::super::compressed::{LANES_WINDOW, Packed, write_bits};
    use super::{
        Layout, Quantized, Range, STILL_EXTENT, fewest_bits, pack, pack_segments, quantize,
    };

    #[test]
    fn bits_cross_word_boundaries_and_come_back() {
        // Widths 0 to 19 laid end to end, so fields straddle every word boundary.
        let fields: Vec<(u32, u8)> = (0..200u32)
            .map(|k| {
                let bits = (k % 20) as u8;
                let value = k.wrapping_mul(2_654_435_761) & ((1u32 << bits) - 1);
                (value, bits)
            })
            .collect();
        let mut bytes = Vec::new();
        let mut at = 0;
        for &(value, bits) in &fields {
            write_bits(&mut bytes, at, value, bits);
            at += usize::from(bits);
        }
        // One track per field, read back through the decoder's own path: x holds the field.
        let tracks: Vec<Quantized> = fields
            .iter()
            .map(|&(value, bits)| Quantized {
                min: Vec3::ZERO,
                step: Vec3::new(1.0, 0.0, 0.0),
                bits: [bits, 0, 0],
                keys: vec![[value, 0, 0]],
            })
            .collect();
        let refs: Vec<&Quantized> = tracks.iter().collect();
        let packed: Packed = pack(&refs, 1, Range::Float);
        assert_eq!(packed.row_bits, at);
        // The bits as written, then the spare bytes four places are read with (zeros).
        let (bits, spare) = packed.stream.split_at(at.div_ceil(8));
        assert_eq!(bits, &bytes[..at.div_ceil(8)]);
        assert_eq!(spare, [0; LANES_WINDOW]);
        let mut out = vec![Vec3::ONE; fields.len()];
        packed.decode(0, &mut out);
        for (k, (&(value, _), o)) in fields.iter().zip(&out).enumerate() {
            assert_eq!(*o, Vec3::new(value as f32, 0.0, 0.0), "field {k}");
        }
    }

    #[test]
    fn extents_are_stored_rounded_up_to_their_codes() {
        use super::stored_extent;
        // bfloat16: 1 and 0.25 as they are; 1 + 2^-10 up to the next of 7 fraction bits,
        // 1 + 1/128; 0 (a component that holds still) stays 0.
        assert_eq!(stored_extent(1.0, Range::Float), 1.0);
        assert_eq!(stored_extent(0.25, Range::Float), 0.25);
        assert_eq!(
            stored_extent(1.0 + 1.0 / 1024.0, Range::Float),
            1.0 + 1.0 / 128.0
        );
        assert_eq!(stored_extent(0.0, Range::Float), 0.0);
        // A byte of 2^((c - 239) / 16): 1 is code 239, 2 code 255, and the grid's smallest
        // extent, 1/32,767, code 0 (2^-14.9375, 3.19e-5).
        assert_eq!(stored_extent(1.0, Range::Unit16), 1.0);
        assert_eq!(stored_extent(2.0, Range::Unit16), 2.0);
        let smallest = stored_extent(1.0 / 32767.0, Range::Unit16);
        assert!(
            (smallest - (-14.9375f32).exp2()).abs() < 1e-10,
            "{smallest}"
        );
        // Any other: at most 2^(1/16) over.
        for k in 1..200 {
            let e = k as f32 / 100.0;
            let s = stored_extent(e, Range::Unit16);
            assert!(
                s >= e && s <= e * (1.0f32 / 16.0).exp2() * 1.000_001,
                "{e}: {s}"
            );
        }
    }

    #[test]
    fn a_component_that_holds_still_costs_no_bits_and_the_others_keep_the_step() {
        // x spans 1.0, y 0.25, z not at all.
        let values: Vec<Vec3> = (0..9)
            .map(|k| Vec3::new(k as f32 / 8.0, 0.5 + (k % 3) as f32 / 8.0, -2.0))
            .collect();
        let q = quantize(&values, 8, Range::Float);
        // x: 8 bits, 255 steps of 1/255 = 0.00392; y: the fewest bits whose steps are no
        // coarser: 0.25 over 63 steps (6 bits) is 0.00397, just coarser; over 127 (7 bits)
        // 0.00197.
        assert_eq!(q.bits, [8, 7, 0]);
        for (k, v) in values.iter().enumerate() {
            let err = (q.value(k) - *v).abs();
            assert!(
                err.x <= 0.5 / 255.0 + 1e-6 && err.y <= 0.5 * 0.25 / 127.0 + 1e-6,
                "{k}: {err}"
            );
            assert_eq!(q.value(k).z, -2.0);
        }
        // Rotation ranges on the 16-bit grid of [-1, 1] still hold every value.
        let q = quantize(
            &[Vec3::new(0.1234, -0.5, 0.0), Vec3::new(0.3, 0.25, 0.0)],
            12,
            Range::Unit16,
        );
        assert!(q.min.x <= 0.1234 && q.min.x > 0.1234 - 1.0 / 32767.0);
        assert!(q.min.x + q.step.x * 4095.0 >= 0.3 - 1e-6);
        // A component that holds still at 0 (here z) is stored and comes back as 0 exactly.
        assert_eq!(q.bits[2], 0);
        assert_eq!(q.value(0).z, 0.0);
        assert_eq!(q.value(1).z, 0.0);
    }

    #[test]
    fn the_tiniest_ranges_hold_still_and_the_others_decode_to_the_bit() {
        // x spans 1e-35 (under 2^-100: holds still at its minimum); y spans 2^-100 in 19 bits,
        // the finest steps kept (2^-119 and a little more), which the decoder scales down by up
        // to 2^-7: still normal floats, so rows decode to the bit.
        let tiny = STILL_EXTENT;
        let values: Vec<Vec3> = (0..8)
            .map(|k| Vec3::new(1e-35 * (k % 2) as f32, tiny * k as f32 / 7.0, 0.0))
            .collect();
        let q = quantize(&values, 19, Range::Float);
        assert_eq!(q.bits, [0, 19, 0]);
        assert_eq!(q.value(1).x, 0.0);
        assert!(q.step.y >= 1.0 / (1u128 << 119) as f32);
        for lead in 0..8u8 {
            // A leading track of `lead` bits (all zero) moves y's field to every bit of a byte.
            let first = Quantized {
                min: Vec3::ZERO,
                step: Vec3::ZERO,
                bits: [lead, 0, 0],
                keys: vec![[0; 3]; 8],
            };
            let packed = pack(&[&first, &q], 8, Range::Float);
            let mut out = [Vec3::ONE; 2];
            for row in 0..8 {
                packed.decode_vectors(row, &mut out);
                assert_eq!(
                    out[1].to_array().map(f32::to_bits),
                    q.value(row).to_array().map(f32::to_bits),
                    "lead {lead} row {row}"
                );
            }
        }
    }

    #[test]
    fn segments_decode_each_row_from_their_own_range_and_count_their_bytes() {
        // Two tracks of 40 keys: x ramps over [0, 1] for 16 keys, then wiggles by sin / 64
        // around 0.5 (a range of 1.94 / 64 over keys 16-31, 1.99 / 64 over 32-39); y holds
        // still. With steps of at most 1/255: 8 bits over the ramp, and over the wiggles the
        // fewest b with 2 / 64 / (2^b - 1) <= 1/255: 4.
        let track = |phase: f32| -> Vec<Vec3> {
            (0..40)
                .map(|k| {
                    let x = if k < 16 {
                        k as f32 / 15.0
                    } else {
                        0.5 + (k as f32 + phase).sin() / 64.0
                    };
                    Vec3::new(x, 0.25, 0.0)
                })
                .collect()
        };
        let values = [track(0.0), track(1.0)];
        let quantized: Vec<Vec<Quantized>> = (values.iter())
            .map(|v| fewest_bits(v, 16, (Range::Float, 12), |q, _| q.step.x <= 1.0 / 255.0))
            .collect::<Option<_>>()
            .unwrap();
        for q in &quantized {
            let bits: Vec<[u8; 3]> = q.iter().map(|s| s.bits).collect();
            assert_eq!(bits, [[8, 0, 0], [4, 0, 0], [4, 0, 0]]);
        }
        let segments = pack_segments(&quantized, 16, Range::Float);
        // Segment 0: two 18-byte ranges and 16 rows of 16 bits (68); segment 1: the ranges, 2
        // bytes of widths a track and 16 rows of 8 bits (56); segment 2: 40 and 8 rows (48);
        // and a byte of segment length.
        assert_eq!(segments.bytes(40), 68 + 56 + 48 + 1);
        let mut out = [Vec3::ZERO; 2];
        for row in 0..40 {
            segments.decode(row, &mut out);
            for (t, o) in out.iter().enumerate() {
                let q = &quantized[t][row / 16];
                assert_eq!(*o, q.value(row % 16), "track {t} row {row}");
                assert!((o.x - values[t][row].x).abs() <= 0.5 / 255.0 + 1e-6);
            }
        }
    }

    #[test]
    fn rows_decoded_four_components_at_a_time_are_the_track_at_a_time_values() {
        use super::super::compressed::rotation_from_xyz;
        use super::super::runtime::{Block, IDENTITY_BLOCK};
        // Seven tracks (a block and a part block) of 9 keys, widths 3 to 19 bits (or all 19,
        // the widest keys, whose four places lie furthest apart) and a component that holds
        // still; vectors over their own ranges, rotations' x, y and z on the unit grid (one of
        // them a little over unit length, as rounding leaves it). Track 0 moves along x alone,
        // and takes a bit more or less where that makes the rows' length odd, so that the 9
        // rows begin at every bit of a byte.
        let widths: [fn(usize) -> u8; 2] = [|t| 3 + (t as u8 * 3) % 17, |_| 19];
        for (range, layout) in [
            (Range::Float, Layout::Tracks),
            (Range::Unit16, Layout::Blocks),
        ] {
            for width in widths {
                let track = |t: usize, bits: u8| {
                    let values: Vec<Vec3> = (0..9)
                        .map(|k| {
                            let f = (t * 9 + k) as f32;
                            let v = Vec3::new((0.7 * f).sin(), (1.3 * f).cos(), 0.25);
                            match (t, k) {
                                (0, _) => Vec3::new(v.x * 0.57, 0.0, 0.0),
                                (6, 2) => v.normalize() * 1.0001,
                                _ => v * 0.57,
                            }
                        })
                        .collect();
                    quantize(&values, bits, range)
                };
                let mut tracks: Vec<Quantized> = (0..7).map(|t| track(t, width(t))).collect();
                assert_eq!(tracks[0].bits[1..], [0, 0]);
                if pack(&tracks.iter().collect::<Vec<_>>(), 9, range)
                    .row_bits
                    .is_multiple_of(2)
                {
                    tracks[0] = track(0, if width(0) == 19 { 18 } else { width(0) + 1 });
                }
                let refs: Vec<&Quantized> = tracks.iter().collect();
                let packed = pack(&refs, 9, range);
                assert_eq!(packed.layout, layout);
                let firsts: std::collections::BTreeSet<usize> =
                    (0..9).map(|row| row * packed.row_bits % 8).collect();
                assert_eq!(firsts.len(), 8, "rows begin at every bit of a byte");
                for row in 0..9 {
                    let mut want = [Vec3::ZERO; 7];
                    packed.decode(row, &mut want);
                    if layout == Layout::Tracks {
                        let mut got = [Vec3::ONE; 7];
                        packed.decode_vectors(row, &mut got);
                        let bits = |v: &[Vec3; 7]| v.map(|v| v.to_array().map(f32::to_bits));
                        assert_eq!(bits(&got), bits(&want), "row {row}");
                        continue;
                    }
                    let mut got: [Block; 2] = [IDENTITY_BLOCK; 2];
                    packed.decode_rotations(row, &mut got);
                    for (k, want) in want.iter().enumerate() {
                        let block = &got[k / 4];
                        let lane = glam::Vec4::new(
                            block[0][k % 4],
                            block[1][k % 4],
                            block[2][k % 4],
                            block[3][k % 4],
                        );
                        let want = rotation_from_xyz(*want);
                        assert_eq!(
                            lane.to_array().map(f32::to_bits),
                            want.to_array().map(f32::to_bits),
                            "row {row} track {k}"
                        );
                    }
                }
            }
        }
    }
}
