//! `skinscope inspect --compression`: each clip compressed under a measured error bound, with its
//! raw and compressed bytes, their ratio and the largest error measured over the clip.

use serde::Serialize;

use crate::anim::CompressionReport;
use crate::character::Character;
use crate::pose::{character_height, compress_clips, compression_settings};

#[derive(Clone, Debug, Serialize)]
pub struct CompressionSection {
    /// The character's height (rest pose), in the file's units.
    pub height: f32,
    /// The largest position error allowed at a virtual vertex, in the file's units.
    pub tolerance: f32,
    /// Whether the tolerance is the default (1e-4 of the height).
    pub default_tolerance: bool,
    /// How far the virtual vertices sit from each joint (its skin's reach): the largest and the
    /// smallest over the joints.
    pub max_distance: f32,
    pub min_distance: f32,
    pub clips: Vec<ClipCompression>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClipCompression {
    pub name: String,
    pub duration_secs: f32,
    /// Joints the clip animates.
    pub animated_joints: usize,
    pub raw_keys: usize,
    pub kept_keys: usize,
    pub raw_bytes: usize,
    pub compressed_bytes: usize,
    pub ratio: f32,
    pub max_error: f32,
    pub within_tolerance: bool,
    /// Bytes per animated joint per second of clip (ozz quotes 56,561 bytes for a 1 s clip of 67
    /// joints: 844 per joint-second).
    pub raw_bytes_per_joint_second: f32,
    pub compressed_bytes_per_joint_second: f32,
    /// Quantized tracks stored in segments of about 16 or 32 keys (ACL's), each over its own range.
    pub segmented_tracks: usize,
}

impl CompressionSection {
    /// Compresses every clip of `c` (kept in `ClipData::compressed`) and reports each.
    pub fn of_character(c: &mut Character, tolerance: Option<f32>) -> Self {
        let height = character_height(c);
        let settings = compression_settings(c, tolerance);
        let reports = compress_clips(c, &settings);
        let animated = |k: usize| {
            let mut joints: Vec<usize> = c.clips[k].clip.tracks().iter().map(|t| t.joint).collect();
            joints.sort_unstable();
            joints.dedup();
            joints.len()
        };
        let clips = reports
            .iter()
            .enumerate()
            .map(|(k, r)| ClipCompression::of(r, animated(k)))
            .collect();
        Self {
            height,
            tolerance: settings.tolerance,
            default_tolerance: tolerance.is_none(),
            max_distance: settings.distances.iter().copied().fold(0.0, f32::max),
            min_distance: settings
                .distances
                .iter()
                .copied()
                .fold(f32::INFINITY, f32::min),
            clips,
        }
    }

    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\ncompression: tolerance {:.4e}{} at virtual vertices {:.4} to {:.4} from each joint (its skin's reach; height {:.4})",
            self.tolerance,
            if self.default_tolerance {
                " (1e-4 of the height)"
            } else {
                ""
            },
            self.min_distance,
            self.max_distance,
            self.height
        );
        let _ = writeln!(
            s,
            "  {:<20} {:>8} {:>6} {:>13} {:>10} {:>10} {:>6} {:>11} {:>17} {:>9}",
            "clip",
            "seconds",
            "joints",
            "keys",
            "raw B",
            "packed B",
            "ratio",
            "max error",
            "B/joint-s raw>pkd",
            "segmented"
        );
        for c in &self.clips {
            let _ = writeln!(
                s,
                "  {:<20} {:>8.3} {:>6} {:>13} {:>10} {:>10} {:>6.2} {:>11.3e} {:>17} {:>9}{}",
                format!("{:?}", c.name),
                c.duration_secs,
                c.animated_joints,
                format!("{}>{}", c.raw_keys, c.kept_keys),
                c.raw_bytes,
                c.compressed_bytes,
                c.ratio,
                c.max_error,
                format!(
                    "{:.0}>{:.0}",
                    c.raw_bytes_per_joint_second, c.compressed_bytes_per_joint_second
                ),
                c.segmented_tracks,
                if c.within_tolerance {
                    ""
                } else {
                    "  OVER the tolerance"
                }
            );
        }
        s
    }
}

impl ClipCompression {
    fn of(r: &CompressionReport, animated_joints: usize) -> Self {
        let joint_seconds = animated_joints as f32 * r.duration_secs;
        let per = |bytes: usize| {
            if joint_seconds > 0.0 {
                bytes as f32 / joint_seconds
            } else {
                0.0
            }
        };
        Self {
            name: r.clip.clone(),
            duration_secs: r.duration_secs,
            animated_joints,
            raw_keys: r.raw_keys,
            kept_keys: r.kept_keys,
            raw_bytes: r.raw_bytes,
            compressed_bytes: r.compressed_bytes,
            ratio: r.ratio(),
            max_error: r.max_error,
            within_tolerance: r.max_error <= r.settings.tolerance,
            raw_bytes_per_joint_second: per(r.raw_bytes),
            compressed_bytes_per_joint_second: per(r.compressed_bytes),
            segmented_tracks: r.segmented_tracks,
        }
    }
}
