//! Motion matching: the database of a character's clips at 60 Hz, its features
//! checked against poses worked here, the candidates a clip's end leaves, the search finding a
//! frame from its own features and agreeing with brute force, the saved database, and the
//! character steered along a path, to a stop, and reported by `palette --json`.

use glam::{Quat, Vec3};
use skinscope_anim::{Channel, Clip, Interpolation, JointTrack, Track};
use skinscope_core::character::{Character, ClipData};
use skinscope_core::pose::{
    CharacterPose, FEATURES, MatchWeights, MotionDatabase, PoseRequest, build_database, is_cyclic,
};

use skinscope_testkit as common;

/// The built-in character with a clip `turn` added: the pelvis turning 90 degrees about +Y over
/// 2 s, on the spot (its last pose is not its first: it does not loop); and the clips the
/// database tests use (the five hand-made ones and the turn).
fn with_turn() -> (Character, usize, Vec<usize>) {
    let mut c = skinscope_import::builtin::character().unwrap();
    let pelvis = c.skeleton.find("pelvis").unwrap();
    let rest = c.skeleton.rest()[pelvis].rotation;
    let track = Track::new(
        vec![0.0, 2.0],
        vec![rest, Quat::from_rotation_y(90f32.to_radians()) * rest],
        Interpolation::Linear,
    )
    .unwrap();
    let tracks = vec![JointTrack {
        joint: pelvis,
        channel: Channel::Rotation(track),
    }];
    let clip = Clip::new("turn", c.skeleton.joint_count(), tracks, Vec::new()).unwrap();
    let index = push_clip(&mut c, clip);
    (c, index, vec![0, 1, 2, 3, 4, index])
}

/// Adds `clip` after the character's own; returns its index.
fn push_clip(c: &mut Character, clip: Clip) -> usize {
    let index = c.clips.len();
    c.clips.push(ClipData {
        index,
        clip,
        morph_tracks: Vec::new(),
        channels: Vec::new(),
        compressed: None,
    });
    index
}

fn row(db: &MotionDatabase, f: usize) -> &[f32] {
    &db.raw[f * FEATURES..][..FEATURES]
}

#[test]
fn every_frame_at_60_hz_and_each_candidate_found_by_its_own_features() {
    let (c, turn, clips) = with_turn();
    let db = build_database(&c, &clips, &MatchWeights::default()).unwrap();
    // idle 2.5 s, walk 1 s, wave 1.6 s, twist 3 s, jump 1.2 s, turn 2 s: floor(60 d) + 1 each.
    assert_eq!(db.frames.len(), 151 + 61 + 97 + 181 + 73 + 121);
    assert!(db.raw.iter().all(|x| x.is_finite()));
    // The built-in clips loop (their last pose is their first); the turn does not.
    for &k in &clips {
        assert_eq!(
            is_cyclic(&c, k, db.joints.root),
            k != turn,
            "{}",
            c.clips[k].clip.name()
        );
    }
    let mut scratch = [0.0; FEATURES];
    let first_turn = db.frames.iter().position(|f| f.clip == turn).unwrap();
    for f in (0..db.frames.len()).step_by(7) {
        let found = db
            .nearest(row(&db, f), None, &mut scratch)
            .unwrap()
            .unwrap();
        let candidate = f < first_turn || f < first_turn + 121 - 60;
        if candidate {
            // Itself, or an earlier frame with the very same features, at a cost of 0.
            assert_eq!(found.1, 0.0, "frame {f}");
            assert_eq!(row(&db, found.0), row(&db, f), "frame {f}");
            assert!(found.0 <= f);
        } else {
            // The turn's last second: its future runs past the clip's end, never a candidate.
            assert!(found.0 < first_turn + 61, "frame {f} found {}", found.0);
        }
    }
}

#[test]
fn features_are_the_poses_in_the_facing_frame() {
    let (c, turn, clips) = with_turn();
    let db = build_database(&c, &clips, &MatchWeights::default()).unwrap();
    let s = &c.skeleton;
    let (foot_l, foot_r, pelvis) = (s.find("foot_l"), s.find("foot_r"), s.find("pelvis"));
    assert_eq!(
        (
            Some(db.joints.left_foot),
            Some(db.joints.right_foot),
            Some(db.joints.hips)
        ),
        (foot_l, foot_r, pelvis)
    );
    let posed = |clip: usize, t: f32| {
        let mut pose = CharacterPose::new(&c);
        pose.evaluate(&c, &PoseRequest::clip(clip, t)).unwrap();
        pose
    };
    let at =
        |clip: usize, t: f32, j: usize| Vec3::from(posed(clip, t).model.as_slice()[j].translation);
    // The heading: the pelvis's turn about +Y since the clip's start.
    let heading = |clip: usize, t: f32| {
        let turn = |t: f32| {
            let (_, r, _) =
                posed(clip, t).model.as_slice()[pelvis.unwrap()].to_scale_rotation_translation();
            skinscope_anim::yaw_of(r)
        };
        turn(t) - turn(0.0)
    };
    let walk = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "walk")
        .unwrap();
    // The hand-made walk plays in place: it travels as its planted feet need.
    let travel = db.travel[walk];
    assert!(travel.length() > 0.1, "{travel}");
    assert_eq!(db.travel[turn], Vec3::ZERO);
    // Walk at 0.25 s (facing +Z, its hips swaying): the left foot from the pelvis's ground
    // point and its velocity over the next 1/60 s (with the travel), turned into the heading.
    let f = db
        .frames
        .iter()
        .position(|f| f.clip == walk && (f.time_secs - 0.25).abs() < 1e-4)
        .unwrap();
    let (j, p) = (db.joints.left_foot, db.joints.hips);
    let t = 0.25;
    let to_facing = Quat::from_rotation_y(-heading(walk, t));
    let foot = to_facing * (at(walk, t, j) - at(walk, t, p).with_y(0.0));
    let velocity = to_facing * ((at(walk, t + 1.0 / 60.0, j) - at(walk, t, j)) * 60.0 + travel);
    let r = row(&db, f);
    assert!(
        (Vec3::from_slice(&r[0..3]) - foot).length() < 1e-5,
        "{:?} vs {foot}",
        &r[0..3]
    );
    assert!(
        (Vec3::from_slice(&r[6..9]) - velocity).length() < 1e-3,
        "{:?} vs {velocity}",
        &r[6..9]
    );
    // The turn from 0 s: 45 degrees a second on the spot. Its trajectory stays at the root, and
    // its direction 20, 40 and 60 frames on is turned by 15, 30 and 45 degrees from +Z.
    let f = db.frames.iter().position(|f| f.clip == turn).unwrap();
    let r = row(&db, f);
    for (n, degrees) in [15f32, 30.0, 45.0].into_iter().enumerate() {
        let (x, z) = (r[15 + 2 * n], r[16 + 2 * n]);
        assert!(x.abs() < 1e-4 && z.abs() < 1e-4, "position {n}: {x} {z}");
        let (dx, dz) = (r[21 + 2 * n], r[22 + 2 * n]);
        let (sin, cos) = degrees.to_radians().sin_cos();
        assert!(
            (dx - sin).abs() < 1e-4 && (dz - cos).abs() < 1e-4,
            "direction {n}: {dx} {dz}"
        );
    }
}

#[test]
fn a_character_without_two_legs_or_clips_is_refused() {
    let c = skinscope_import::builtin::character().unwrap();
    let e = build_database(&c, &[99], &MatchWeights::default()).unwrap_err();
    assert!(e.to_string().contains("no clip"), "{e}");
    // A spine without legs (a BVH of two joints): no feet to read.
    let dir = common::temp_dir("mm-spine");
    let path = common::spine_bvh(&dir);
    let spine = skinscope_import::load(&path).unwrap();
    let e = build_database(&spine, &[], &MatchWeights::default()).unwrap_err();
    assert!(e.to_string().contains("spine.bvh: no two legs"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The built-in character with `walk_slow` (0.8 m/s ahead, by root motion) also played in
/// place: the same clip, the pelvis's travel taken out of it.
fn with_walk_in_place() -> (Character, usize, usize) {
    let mut c = skinscope_import::builtin::character().unwrap();
    let walk = clip(&c, "walk_slow");
    let pelvis = c.skeleton.find("pelvis").unwrap();
    let mut tracks = c.clips[walk].clip.tracks().to_vec();
    for t in &mut tracks {
        if let (true, Channel::Translation(track)) = (t.joint == pelvis, &t.channel) {
            let values: Vec<Vec3> = track
                .values()
                .iter()
                .map(|v| Vec3::new(0.0, v.y, 0.0))
                .collect();
            let keys = track.times().to_vec();
            t.channel =
                Channel::Translation(Track::new(keys, values, Interpolation::Linear).unwrap());
        }
    }
    let clip = Clip::new(
        "walk_in_place",
        c.skeleton.joint_count(),
        tracks,
        Vec::new(),
    )
    .unwrap();
    let index = push_clip(&mut c, clip);
    (c, walk, index)
}

fn clip(c: &Character, name: &str) -> usize {
    c.clips.iter().position(|k| k.clip.name() == name).unwrap()
}

#[test]
fn a_clip_played_in_place_travels_as_its_planted_feet_need() {
    let (c, walk, in_place) = with_walk_in_place();
    let db = build_database(&c, &[walk, in_place], &MatchWeights::default()).unwrap();
    // The generated walk travels by root motion: nothing added. Played in place, it travels at
    // the speed it was generated at, 0.8 m/s along +Z, within 2%.
    assert_eq!(db.travel[walk], Vec3::ZERO);
    let v = db.travel[in_place];
    assert!((v - Vec3::new(0.0, 0.0, 0.8)).length() < 0.016, "{v}");
    // So both have the same trajectory features, frame for frame, but for the walk's sway and
    // twist (under 5 cm and 0.05 of a unit direction).
    let n = db.frames.iter().filter(|f| f.clip == walk).count();
    for f in 0..n {
        let (a, b) = (row(&db, f), row(&db, n + f));
        for i in 15..FEATURES {
            assert!(
                (a[i] - b[i]).abs() < 0.05,
                "frame {f} feature {i}: {} vs {}",
                a[i],
                b[i]
            );
        }
    }
}

#[test]
fn a_saved_database_whose_frame_plays_a_clip_it_does_not_hold_is_refused() {
    let (c, _, clips) = with_turn();
    let db = build_database(&c, &clips, &MatchWeights::default()).unwrap();
    let mut bytes = db.to_bytes(&c);
    assert_eq!(MotionDatabase::from_bytes(&bytes, &c).unwrap().raw, db.raw);
    // Past the header (60 bytes), the clip table (a count, then each clip's u16 name length,
    // name and duration) and the clips' travel (12 bytes each): the frame count, then the
    // first frame's clip.
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let count = u32_at(&bytes, 60) as usize;
    let mut at = 64;
    for _ in 0..count {
        let n = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        at += 2 + n + 4;
    }
    at += 12 * count + 4;
    bytes[at..at + 4].copy_from_slice(&(count as u32).to_le_bytes());
    let e = MotionDatabase::from_bytes(&bytes, &c)
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("frame 0 plays clip {count}")), "{e}");
}
