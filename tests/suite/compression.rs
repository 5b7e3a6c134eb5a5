//! Compressed clips: the error bound holds when measured independently, the byte
//! counts match hand-worked ones, the compressed keys are what the viewer and every command play,
//! and `inspect --compression` reports them.

use crate::common;

use std::path::Path;

use glam::{Mat4, Quat, Vec3, Vec4};
use skinscope::anim::{
    self, Channel, Clip, ClipCursor, CompressionSettings, Interpolation, JointTrack, LocalPose,
    ModelPose, Skeleton, Track, Transform, compress_clip, raw_bytes,
};
use skinscope::character::Character;
use skinscope::pose::{CharacterPose, PoseRequest, compress_clips, compression_settings};

fn load(rel: &str) -> Character {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/gltf")
        .join(rel);
    skinscope::import::load(&path).expect("sample model")
}

/// Joint origins of the raw and the compressed clip, at times the compressor's own measurement
/// does not use (off its 120 Hz grid and its key times): the largest distance between them.
fn independent_error(skeleton: &Skeleton, clip: &Clip, packed: &anim::CompressedClip) -> f32 {
    let (mut raw, mut pk) = (LocalPose::rest(skeleton), LocalPose::rest(skeleton));
    let (mut raw_m, mut pk_m) = (ModelPose::new(skeleton), ModelPose::new(skeleton));
    let (mut rc, mut pc) = (ClipCursor::new(clip), ClipCursor::for_compressed(packed));
    let mut worst: f32 = 0.0;
    let steps = 997;
    for k in 0..=steps {
        let t = clip.duration_secs() * (k as f32 + 0.37) / (steps as f32 + 1.0);
        anim::sample_clip(skeleton, clip, t, &mut rc, &mut raw).unwrap();
        anim::sample_compressed(skeleton, packed, t, &mut pc, &mut pk).unwrap();
        anim::local_to_model(skeleton, &raw, &mut raw_m).unwrap();
        anim::local_to_model(skeleton, &pk, &mut pk_m).unwrap();
        for (a, b) in raw_m.as_slice().iter().zip(pk_m.as_slice()) {
            worst = worst.max(Vec3::from(a.translation).distance(Vec3::from(b.translation)));
        }
    }
    worst
}

/// Compresses every clip of the sample file `rel` with the default settings and checks each
/// within its bound, as the compressor measured it and as `independent_error` does; returns the
/// character and the reports.
fn compress_within_bound(rel: &str) -> (Character, Vec<anim::CompressionReport>) {
    let mut c = load(rel);
    let settings = compression_settings(&c, None);
    let reports = compress_clips(&mut c, &settings);
    assert_eq!(reports.len(), c.clips.len());
    for (report, data) in reports.iter().zip(&c.clips) {
        assert!(
            report.max_error <= settings.tolerance,
            "{rel} {}: measured {} over {}",
            report.clip,
            report.max_error,
            settings.tolerance
        );
        let packed = data.compressed.as_ref().unwrap();
        let independent = independent_error(&c.skeleton, &data.clip, packed);
        assert!(
            independent <= settings.tolerance,
            "{rel} {}: joint origins {independent} apart, bound {}",
            report.clip,
            settings.tolerance
        );
    }
    (c, reports)
}

#[test]
fn sample_characters_compress_within_the_bound_measured_independently() {
    // The aim is 4x of each. CesiumMan's clip gives 8.1x; the Fox's Survey 8.3x and Walk
    // 4.2x, but its Run 3.9x: 24 fps keys with large steps, every one of them kept.
    for (rel, least_ratio) in [("CesiumMan/CesiumMan.glb", 7.0), ("Fox/Fox.glb", 4.0)] {
        let (c, reports) = compress_within_bound(rel);
        let (mut raw, mut packed) = (0, 0);
        for (report, data) in reports.iter().zip(&c.clips) {
            assert!(
                report.ratio() >= least_ratio,
                "{rel} {}: ratio {}",
                report.clip,
                report.ratio()
            );
            (raw, packed) = (raw + report.raw_bytes, packed + report.compressed_bytes);
            assert_eq!(report.raw_bytes, raw_bytes(&data.clip));
            let clip = data.compressed.as_ref().unwrap();
            assert_eq!(report.compressed_bytes, clip.bytes());
        }
        // Each file's clips together: at least 4x (the Fox's three, 6.0x).
        assert!(
            raw >= 4 * packed,
            "{rel}: {raw} bytes raw, {packed} compressed"
        );
    }
}

/// Bytes per animated joint per second of a compressed clip.
fn per_joint_second(clip: &Clip, report: &anim::CompressionReport) -> f32 {
    let mut joints: Vec<usize> = clip.tracks().iter().map(|t| t.joint).collect();
    joints.sort_unstable();
    joints.dedup();
    report.compressed_bytes as f32 / (joints.len() as f32 * clip.duration_secs())
}

#[test]
fn every_character_clip_keeps_the_density_reached() {
    // Bytes per animated joint-second at the default bound, at most what this compressor
    // reaches (CesiumMan 91, the Fox's Survey 40, Walk 94 and Run 75, RiggedFigure 3.3, the
    // built-in's 22 to 66; before tracks at rest were dropped, rotations stored in their own
    // frames, keys quantized in closed loop, key times marked and headers and extents stored
    // compactly, 153, 53, 121, 109, - and 25 to 86).
    let at_most: [(&str, &[(&str, f32)]); 3] = [
        ("CesiumMan/CesiumMan.glb", &[("animation 0", 93.0)]),
        (
            "Fox/Fox.glb",
            &[("Survey", 42.0), ("Walk", 96.0), ("Run", 78.0)],
        ),
        ("RiggedFigure/RiggedFigure.glb", &[("animation 0", 4.0)]),
    ];
    for (rel, clips) in at_most {
        let (c, reports) = compress_within_bound(rel);
        for ((name, most), (report, data)) in clips.iter().zip(reports.iter().zip(&c.clips)) {
            assert_eq!(report.clip, *name);
            let per = per_joint_second(&data.clip, report);
            assert!(per <= *most, "{rel} {name}: {per} bytes per joint-second");
        }
    }
    let mut c = skinscope::builtin::character().unwrap();
    let settings = compression_settings(&c, None);
    for (report, data) in compress_clips(&mut c, &settings).iter().zip(&c.clips) {
        assert!(report.max_error <= settings.tolerance, "{}", report.clip);
        let per = per_joint_second(&data.clip, report);
        assert!(per <= 67.0, "built-in {}: {per}", report.clip);
    }
}

/// A motion-capture stand-in: CesiumMan's walk resampled at 120 Hz, each key's rotation turned
/// by measurement noise (up to `noise` radians about a random axis, uniform) and the root's
/// translation moved by up to `noise` times its height. Seeded, so the take is the same on every run.
fn mocap_take(noise: f32) -> (Skeleton, Clip, f32) {
    let c = load("CesiumMan/CesiumMan.glb");
    let skeleton = c.skeleton.clone();
    let clip = &c.clips[0].clip;
    let height = skinscope::pose::character_height(&c);
    let keys = (clip.duration_secs() * 120.0).round() as usize + 1;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 / 120.0).collect();
    let mut seed = 0x2545_f491_u32;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as f32 / u32::MAX as f32 * 2.0 - 1.0
    };
    let mut cursor = ClipCursor::new(clip);
    let mut pose = LocalPose::rest(&skeleton);
    let mut samples: Vec<Vec<Transform>> = Vec::new();
    for &t in &times {
        anim::sample_clip(&skeleton, clip, t, &mut cursor, &mut pose).unwrap();
        samples.push(pose.as_slice().to_vec());
    }
    let mut animated: Vec<usize> = clip.tracks().iter().map(|t| t.joint).collect();
    animated.sort_unstable();
    animated.dedup();
    let root = animated[0];
    let mut tracks = Vec::new();
    for &j in &animated {
        let rotations = (samples.iter())
            .map(|p| {
                let axis = Vec3::new(random(), random(), random()).normalize_or(Vec3::X);
                Quat::from_axis_angle(axis, noise * random()) * p[j].rotation
            })
            .collect();
        tracks.push(JointTrack {
            joint: j,
            channel: Channel::Rotation(
                Track::new(times.clone(), rotations, Interpolation::Linear).unwrap(),
            ),
        });
        if j == root {
            let translations = (samples.iter())
                .map(|p| {
                    let jitter = Vec3::new(random(), random(), random()) * noise * height;
                    p[j].translation + jitter
                })
                .collect();
            tracks.push(JointTrack {
                joint: j,
                channel: Channel::Translation(
                    Track::new(times.clone(), translations, Interpolation::Linear).unwrap(),
                ),
            });
        }
    }
    let take = Clip::new("take", skeleton.joint_count(), tracks, vec![]).unwrap();
    (skeleton, take, height)
}

#[test]
fn a_dense_noisy_take_holds_acl_s_bound() {
    // ACL's measure on CMU: 0.01 cm at virtual vertices 3 cm from every joint of a 1.8 m
    // character, in this character's units. The noise: up to 2e-5 rad a key (0.001 degrees)
    // and 2e-5 of the height on the root's position (0.03 mm).
    let (skeleton, take, height) = mocap_take(2e-5);
    let metre = height / 1.8;
    let settings = CompressionSettings::uniform(1e-4 * metre, 0.03 * metre, skeleton.joint_count());
    let (packed, report) = compress_clip(&skeleton, &take, &settings);
    assert!(
        report.max_error <= settings.tolerance,
        "{}",
        report.max_error
    );
    assert!(independent_error(&skeleton, &take, &packed) <= settings.tolerance);
    // 241 keys a track for 19 joints' rotations and the root's translation: 95,436 bytes raw
    // (4 + 16 bytes a rotation key, 4 + 12 a translation key).
    assert_eq!(report.raw_bytes, 241 * (19 * 20 + 16));
    // 117 bytes per joint-second (ACL stores CMU at about 60).
    let per = per_joint_second(&take, &report);
    assert!(per <= 120.0, "{per} bytes per joint-second");
}

#[test]
fn step_linear_and_cubic_spline_clips_hold_the_bound() {
    // InterpolationTest: one node driven STEP, LINEAR or CUBICSPLINE per clip. Cubic splines are
    // resampled as LINEAR keys (more finely at each retry) until the measured error holds.
    let (_, reports) = compress_within_bound("InterpolationTest/InterpolationTest.glb");
    assert_eq!(reports.len(), 9);
}

/// A tree of `joints` joints (joint j under (j - 1) / 2, 15 cm bones: a body's depth, not a
/// 60-joint chain) keyed at 30 Hz for `secs` seconds with a translation and a rotation per key:
/// smooth motion, as mocap or hand-keyed clips are.
fn smooth_clip(joints: usize, secs: f32) -> (Skeleton, Clip) {
    let keys = (secs * 30.0) as usize + 1;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 / 30.0).collect();
    let skeleton = Skeleton::new(
        (0..joints).map(|j| format!("j{j}")).collect(),
        (0..joints)
            .map(|j| j.checked_sub(1).map(|p| p / 2))
            .collect(),
        vec![Transform::from_translation(Vec3::Y * 0.15); joints],
    )
    .unwrap();
    let tracks = (0..joints)
        .flat_map(|j| {
            let phase = j as f32 * 0.3;
            let t = Track::new(
                times.clone(),
                times
                    .iter()
                    .map(|&t| Vec3::new(0.0, 0.15 + 0.002 * (t * 2.0 + phase).sin(), 0.0))
                    .collect(),
                Interpolation::Linear,
            )
            .unwrap();
            let r = Track::new(
                times.clone(),
                times
                    .iter()
                    .map(|&t| Quat::from_rotation_z(0.3 * (t * 3.0 + phase).sin()))
                    .collect(),
                Interpolation::Linear,
            )
            .unwrap();
            [
                JointTrack {
                    joint: j,
                    channel: Channel::Translation(t),
                },
                JointTrack {
                    joint: j,
                    channel: Channel::Rotation(r),
                },
            ]
        })
        .collect();
    (
        skeleton,
        Clip::new("smooth", joints, tracks, vec![]).unwrap(),
    )
}

#[test]
fn the_seeds_worked_clip_lands_within_a_fifth() {
    // 60 joints, 5 s at 30 Hz: 151 keys a track. The seeds count 9,000 samples x 28 bytes
    // (Vec3 + quaternion) = 252,000 bytes of values; with f32 key times (4 bytes a key a track)
    // the raw clip is 60 x 151 x (12 + 4 + 16 + 4) = 326,160 bytes.
    let (skeleton, clip) = smooth_clip(60, 5.0);
    assert_eq!(raw_bytes(&clip), 60 * 151 * (12 + 4 + 16 + 4));
    // A 1.8 m character's default bound: 0.18 mm, virtual vertices 10 cm from each joint.
    let settings = CompressionSettings::uniform(1.8e-4, 0.1, 60);
    let (packed, report) = compress_clip(&skeleton, &clip, &settings);
    assert!(report.max_error <= 1.8e-4, "{}", report.max_error);
    // The seeds' "a fifth to a tenth" (at or under 20% of 252,000 = 50,400 bytes).
    // Each track's bits are chosen by its error at the skin's reach, and the components that
    // hold still (x and y of a rotation about z, the translations' x and z) cost none: 18,069
    // bytes here, 7.2% (16-bit keys only gave 87,964, 35%).
    assert!(
        report.compressed_bytes * 5 <= 252_000,
        "{} bytes: more than a fifth of 252,000",
        report.compressed_bytes
    );
    assert!(report.compressed_bytes * 10 <= raw_bytes(&clip));
    assert!(
        packed.on_frame_grid(),
        "30 Hz keys are stored as frame numbers"
    );
    assert!(independent_error(&skeleton, &clip, &packed) <= 1.8e-4);
}

/// A chain of `joints` 15 cm bones, each turning about z at 30 Hz for `secs` seconds by
/// noise-like angles (no key can be dropped): `loud` radians at most for the first second,
/// `quiet` after it.
fn loud_then_quiet(joints: usize, secs: f32, (loud, quiet): (f32, f32)) -> (Skeleton, Clip) {
    let keys = (secs * 30.0) as usize + 1;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 / 30.0).collect();
    let skeleton = Skeleton::new(
        (0..joints).map(|j| format!("j{j}")).collect(),
        (0..joints).map(|j| j.checked_sub(1)).collect(),
        vec![Transform::from_translation(Vec3::Y * 0.15); joints],
    )
    .unwrap();
    let tracks = (0..joints)
        .map(|j| {
            let values = (0..keys)
                .map(|k| {
                    // A hash of (j, k) in [-1, 1] (murmur3's finaliser).
                    let mut h = (j * 7919 + k * 104_729) as u32;
                    h = (h ^ h >> 16).wrapping_mul(0x85eb_ca6b);
                    h = (h ^ h >> 13).wrapping_mul(0xc2b2_ae35);
                    h ^= h >> 16;
                    let noise = h as f32 / u32::MAX as f32 * 2.0 - 1.0;
                    let amplitude = if times[k] <= 1.0 { loud } else { quiet };
                    Quat::from_rotation_z(amplitude * noise)
                })
                .collect();
            JointTrack {
                joint: j,
                channel: Channel::Rotation(
                    Track::new(times.clone(), values, Interpolation::Linear).unwrap(),
                ),
            }
        })
        .collect();
    let clip = Clip::new("loud then quiet", joints, tracks, vec![]).unwrap();
    (skeleton, clip)
}

#[test]
fn a_quiet_stretch_costs_fewer_bits_in_its_own_segments() {
    // 4 s at 30 Hz, 121 keys a track, all kept: 0.6 rad swings for a second, then 0.01 rad
    // (still 1.5 mm at a 15 cm bone, over the 0.18 mm bound). Over the whole clip each track's
    // z takes the bits the swings need; in 4 segments of 31 keys (the first one the loud
    // second) the quiet ones span 1/60 of that range: log2(60) = 5.9, so 6 bits fewer a key,
    // 67 bytes over 90 keys, against 14 bytes (a 12-byte range and 2 bytes of widths) for each
    // of the 3 segments past the first: 25 bytes a track saved. (In 8 segments of 16 keys the 7
    // past the first would cost 98 bytes, more than they save: not chosen.)
    let joints = 6;
    let (skeleton, clip) = loud_then_quiet(joints, 4.0, (0.6, 0.01));
    let mut settings = CompressionSettings::uniform(1.8e-4, 0.1, joints);
    let (segmented, report) = compress_clip(&skeleton, &clip, &settings);
    settings.segments = false;
    let (whole, whole_report) = compress_clip(&skeleton, &clip, &settings);
    assert_eq!(
        report.kept_keys, report.raw_keys,
        "noise-like keys are all kept"
    );
    for (packed, report) in [(&segmented, &report), (&whole, &whole_report)] {
        assert!(report.max_error <= 1.8e-4, "{}", report.max_error);
        // Sampled at 998 times through every segment, and across their boundaries.
        assert!(independent_error(&skeleton, &clip, packed) <= 1.8e-4);
    }
    // Every rotation track is split; none without segments.
    assert_eq!(report.segmented_tracks, joints);
    assert_eq!(whole_report.segmented_tracks, 0);
    let saved = whole.bytes() as f32 - segmented.bytes() as f32;
    assert!(
        saved >= 20.0 * joints as f32,
        "{} bytes in segments, {} whole",
        segmented.bytes(),
        whole.bytes()
    );
    // Where segments save nothing (the seeds' smooth clip, reduced to a few keys a track), the
    // whole-clip packing is kept: the same bytes either way.
    let (skeleton, clip) = smooth_clip(8, 2.0);
    let mut settings = CompressionSettings::uniform(1.8e-4, 0.1, 8);
    let (a, _) = compress_clip(&skeleton, &clip, &settings);
    settings.segments = false;
    let (b, _) = compress_clip(&skeleton, &clip, &settings);
    assert!(a.bytes() <= b.bytes(), "{} > {}", a.bytes(), b.bytes());
}

#[test]
fn keys_on_a_finer_grid_than_their_spacing_are_stored_as_frames() {
    // The Fox's Run: 24 Hz keys baked from 120 Hz, with a gap of 4.8 frames (0, 5, ..., 80,
    // then 104, 109, ... on the 120 Hz grid). The shortest interval (1/24 s) is no grid for
    // them; a fifth of it is.
    let frames: Vec<f32> = (0..17)
        .map(|k| k as f32 * 5.0)
        .chain((0..8).map(|k| 104.0 + k as f32 * 5.0))
        .collect();
    let times: Vec<f32> = frames.iter().map(|f| f / 120.0).collect();
    let skeleton = Skeleton::new(vec!["a".into()], vec![None], vec![Transform::IDENTITY]).unwrap();
    let rotations = times
        .iter()
        .map(|&t| Quat::from_rotation_x(2.0 * t))
        .collect();
    let track = Track::new(times.clone(), rotations, Interpolation::Linear).unwrap();
    let clip = Clip::new(
        "run",
        1,
        vec![JointTrack {
            joint: 0,
            channel: Channel::Rotation(track),
        }],
        vec![],
    )
    .unwrap();
    let settings = CompressionSettings::uniform(1e-5, 0.1, 1);
    let (packed, report) = compress_clip(&skeleton, &clip, &settings);
    assert!(packed.on_frame_grid(), "120 Hz frame numbers");
    assert!(report.max_error <= 1e-5, "{}", report.max_error);
    assert!(independent_error(&skeleton, &clip, &packed) <= 1e-5);
    // At every key, the key's own rotation (the frame number brings back its time).
    let mut cursor = ClipCursor::for_compressed(&packed);
    let mut pose = LocalPose::rest(&skeleton);
    for &t in &times {
        anim::sample_compressed(&skeleton, &packed, t, &mut cursor, &mut pose).unwrap();
        // Within the bound at the 0.1 reach: 1e-4 rad, twice the chord (f32's acos is too
        // coarse near 1 to tell).
        let got = pose.as_slice()[0].rotation;
        let chord = (Vec4::from(got) - Vec4::from(Quat::from_rotation_x(2.0 * t))).length();
        assert!(2.0 * chord <= 1e-4, "t={t}: {got}");
    }
}

#[test]
fn a_loose_bound_keeps_fewer_bytes_and_a_tight_one_more() {
    let (skeleton, clip) = smooth_clip(20, 2.0);
    let bytes = |tolerance: f32| {
        let settings = CompressionSettings::uniform(tolerance, 0.1, 20);
        let (_, report) = compress_clip(&skeleton, &clip, &settings);
        assert!(
            report.max_error <= tolerance,
            "{tolerance}: {}",
            report.max_error
        );
        report.compressed_bytes
    };
    let (tight, default, loose) = (bytes(1e-5), bytes(1.8e-4), bytes(1e-3));
    assert!(
        tight > default && default > loose,
        "{tight} > {default} > {loose}"
    );
}

#[test]
fn held_and_step_tracks_keep_their_keys_exactly_enough() {
    // One joint: a STEP translation and a rotation that holds still (one key kept).
    let skeleton = Skeleton::new(vec!["a".into()], vec![None], vec![Transform::IDENTITY]).unwrap();
    let times = vec![0.0, 0.5, 1.0];
    let step = Track::new(
        times.clone(),
        vec![Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)],
        Interpolation::Step,
    )
    .unwrap();
    let still = Track::new(
        times,
        vec![Quat::from_rotation_y(0.4); 3],
        Interpolation::Linear,
    )
    .unwrap();
    let clip = Clip::new(
        "steps",
        1,
        vec![
            JointTrack {
                joint: 0,
                channel: Channel::Translation(step),
            },
            JointTrack {
                joint: 0,
                channel: Channel::Rotation(still),
            },
        ],
        vec![],
    )
    .unwrap();
    let settings = CompressionSettings::uniform(1e-4, 0.1, 1);
    let (packed, report) = compress_clip(&skeleton, &clip, &settings);
    assert_eq!(report.kept_keys, 3 + 1, "three steps, one still rotation");
    let mut cursor = ClipCursor::for_compressed(&packed);
    let mut pose = LocalPose::rest(&skeleton);
    for (t, x) in [(0.25, 0.0), (0.5, 1.0), (0.99, 1.0), (1.5, 2.0)] {
        anim::sample_compressed(&skeleton, &packed, t, &mut cursor, &mut pose).unwrap();
        let got = pose.as_slice()[0];
        assert!(
            (got.translation.x - x).abs() < 1e-4,
            "t={t}: {}",
            got.translation
        );
        assert!(got.rotation.angle_between(Quat::from_rotation_y(0.4)) < 1e-4);
    }
}

#[test]
fn a_compressed_request_poses_from_the_compressed_keys() {
    let mut c = load("CesiumMan/CesiumMan.glb");
    let settings = compression_settings(&c, None);
    compress_clips(&mut c, &settings);
    let request = PoseRequest::clip(0, 0.83);
    let (mut raw, mut packed) = (CharacterPose::new(&c), CharacterPose::new(&c));
    raw.evaluate(&c, &request).unwrap();
    packed
        .evaluate(&c, &request.clone().with_compressed(true))
        .unwrap();
    // Different keys (the poses differ), within the bound at every joint.
    let mut worst: f32 = 0.0;
    for (a, b) in raw.model.as_slice().iter().zip(packed.model.as_slice()) {
        worst = worst.max(Vec3::from(a.translation).distance(Vec3::from(b.translation)));
    }
    assert!(worst > 0.0, "the compressed pose is its own");
    assert!(worst <= settings.tolerance, "{worst}");
    // And the palettes the GPU gets follow.
    let diff = raw
        .palette
        .iter()
        .zip(&packed.palette)
        .map(|(a, b)| (*a - *b).abs_diff_eq(Mat4::ZERO, 1e-9))
        .filter(|same| !same)
        .count();
    assert!(diff > 0);
}

#[test]
fn the_viewer_switch_plays_compressed_clips_and_compares_them_with_the_raw_ones() {
    let c = load("CesiumMan/CesiumMan.glb");
    let mut viewer = skinscope::viewer::Viewer::new(c, None);
    viewer.controls.playback.playing = false;
    viewer.pose_frame();
    let compressed = |v: &skinscope::viewer::Viewer| {
        v.character
            .clips
            .iter()
            .filter(|k| k.compressed.is_some())
            .count()
    };
    assert_eq!(compressed(&viewer), 0);
    let raw = viewer.pose.model.clone();
    viewer.controls.debug.compressed = true;
    viewer.controls.debug.compare_clips = true;
    viewer.controls.debug.color_view = skinscope::debug::colors::ColorView::Displacement;
    viewer.pose_frame();
    assert_eq!(compressed(&viewer), viewer.character.clips.len());
    assert!(viewer.pose_request().compressed);
    // The compared pose is the raw clip's frame: the one posed before the switch.
    assert_eq!(viewer.compare_pose.model, raw);
    assert_ne!(viewer.pose.model, raw);
    // The displacement colours see a difference, below the bound.
    let colors = viewer.vertex_colors();
    assert!(!colors.is_empty());
}

#[test]
fn inspect_reports_each_clip_compressed() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/CesiumMan/CesiumMan.glb");
    let file = file.to_str().unwrap();
    let (code, out, err) = common::skinscope(&["inspect", file, "--compression", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let section = &json["compression"];
    let tolerance = section["tolerance"].as_f64().unwrap();
    let height = section["height"].as_f64().unwrap();
    assert!(
        (tolerance - 1e-4 * height).abs() < 1e-9,
        "{tolerance} vs {height}"
    );
    let clip = &section["clips"][0];
    let (raw, packed) = (
        clip["raw_bytes"].as_u64().unwrap(),
        clip["compressed_bytes"].as_u64().unwrap(),
    );
    // CesiumMan's one clip: 57 channels of 48 keys, T, R and S: 19 joints x 48 keys x
    // (16 + 20 + 16) bytes.
    assert_eq!(raw, 19 * 48 * (16 + 20 + 16));
    assert!((clip["ratio"].as_f64().unwrap() - raw as f64 / packed as f64).abs() < 1e-3);
    assert!(clip["max_error"].as_f64().unwrap() <= tolerance);
    assert_eq!(clip["within_tolerance"], true);
    // Bytes per joint-second: its 19 animated joints over 2 s.
    let per = clip["compressed_bytes_per_joint_second"].as_f64().unwrap();
    assert!((per - packed as f64 / (19.0 * 2.0)).abs() < 1e-3, "{per}");
    // The segmented tracks are what the library's own compression reports.
    let mut c = load("CesiumMan/CesiumMan.glb");
    let settings = compression_settings(&c, None);
    let reports = compress_clips(&mut c, &settings);
    assert_eq!(
        clip["segmented_tracks"].as_u64().unwrap() as usize,
        reports[0].segmented_tracks
    );
    assert_eq!(packed as usize, reports[0].compressed_bytes);

    // A looser bound in the file's units keeps fewer bytes; the text names it.
    let (code, text, _) =
        common::skinscope(&["inspect", file, "--compression", "--tolerance", "0.002"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("compression: tolerance 2.0000e-3 at"),
        "{text}"
    );
    let looser: u64 = text
        .lines()
        .rfind(|l| l.contains("\"animation 0\""))
        .and_then(|l| l.split_whitespace().nth(6))
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(looser < packed, "{looser} < {packed}");

    // --tolerance needs --compression.
    let (code, _, _) = common::skinscope(&["inspect", file, "--tolerance", "0.002"]);
    assert_ne!(code, 0);
}

#[test]
fn every_posing_command_plays_compressed_clips() {
    // `pose --compressed` against `pose`: the posed vertices move, by no more than the bound
    // (1e-4 of CesiumMan's 1.51 height) with room for a vertex blending joints measured apart.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/CesiumMan/CesiumMan.glb");
    let file = file.to_str().unwrap();
    let dir = common::temp_dir("compressed_pose");
    let vertices = |extra: &[&str]| {
        let out = dir.join(format!("posed{}.obj", extra.len()));
        let out_s = out.to_str().unwrap();
        let mut args = vec!["pose", file, "--time", "0.7", "--out", out_s];
        args.extend_from_slice(extra);
        let (code, _, err) = common::skinscope(&args);
        assert_eq!(code, 0, "{err}");
        common::obj_vertices(&out)
    };
    let (raw, packed) = (vertices(&[]), vertices(&["--compressed"]));
    assert_eq!(raw.len(), packed.len());
    let worst = raw
        .iter()
        .zip(&packed)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0f32, f32::max);
    assert!(worst > 0.0, "the compressed clip is played");
    assert!(worst <= 2.0 * 1.51e-4, "{worst}");
}

#[test]
fn a_pose_sampled_again_from_compressed_keys_lays_the_rest_pose_only_where_needed() {
    // The built-in character's "wave" drives 3 joints, its "walk" 12: a pose that held the walk
    // must be put back at rest before the wave is sampled into it; one that held the wave need
    // not be (the saving is in `docs/performance.md`'s instruction counts).
    let mut c = skinscope::builtin::character().unwrap_or_else(|e| panic!("{e}"));
    let settings = compression_settings(&c, None);
    compress_clips(&mut c, &settings);
    let clip = |name: &str| c.clips.iter().position(|k| k.clip.name() == name);
    let (Some(walk), Some(wave)) = (clip("walk"), clip("wave")) else {
        panic!("the built-in character has a walk and a wave");
    };
    let fresh = |request: &PoseRequest| {
        let mut pose = CharacterPose::new(&c);
        pose.evaluate(&c, request).unwrap();
        pose
    };
    // The two clips pose the character differently, or the switches would test nothing.
    let (walking, waving) = (
        fresh(&PoseRequest::clip(walk, 0.3).with_compressed(true)),
        fresh(&PoseRequest::clip(wave, 0.5).with_compressed(true)),
    );
    assert_ne!(walking.model, waving.model);
    let mut pose = CharacterPose::new(&c);
    let sequence = [
        (walk, true, 0.3),
        (wave, true, 0.5),
        (wave, true, 0.9),
        (walk, false, 0.2),
        (wave, true, 1.1),
        (wave, false, 0.4),
        (wave, true, 0.6),
        (walk, true, 0.7),
        (walk, true, 0.75),
        (wave, true, 0.2),
    ];
    for (k, (clip, compressed, time)) in sequence.into_iter().enumerate() {
        let request = PoseRequest::clip(clip, time).with_compressed(compressed);
        pose.evaluate(&c, &request).unwrap();
        let expected = fresh(&request);
        assert_eq!(pose.local(), expected.local(), "step {k}");
        assert_eq!(pose.model, expected.model, "step {k}");
        assert_eq!(pose.palette, expected.palette, "step {k}");
    }
}
