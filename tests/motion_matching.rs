//! Motion matching (issue 28, in progress): the database of a character's clips at 60 Hz, its
//! features checked against poses worked here, the candidates a clip's end leaves, and the
//! search finding a frame from its own features.

use glam::{Quat, Vec3};
use skinscope::anim::{Channel, Clip, Interpolation, JointTrack, Track};
use skinscope::character::{Character, ClipData};
use skinscope::pose::{
    CharacterPose, FEATURES, MatchWeights, MotionDatabase, PoseRequest, build_database, is_cyclic,
};

/// The built-in character with a clip `turn` added: the pelvis turning 90 degrees about +Y over
/// 2 s, on the spot (its last pose is not its first: it does not loop).
fn with_turn() -> (Character, usize) {
    let mut c = skinscope::builtin::character().unwrap();
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
    let index = c.clips.len();
    c.clips.push(ClipData {
        index,
        clip,
        morph_tracks: Vec::new(),
        channels: Vec::new(),
        compressed: None,
    });
    (c, index)
}

fn row(db: &MotionDatabase, f: usize) -> &[f32] {
    &db.raw[f * FEATURES..][..FEATURES]
}

#[test]
fn every_frame_at_60_hz_and_each_candidate_found_by_its_own_features() {
    let (c, turn) = with_turn();
    let db = build_database(&c, &[], &MatchWeights::default()).unwrap();
    // idle 2.5 s, walk 1 s, wave 1.6 s, twist 3 s, jump 1.2 s, turn 2 s: floor(60 d) + 1 each.
    assert_eq!(db.frames.len(), 151 + 61 + 97 + 181 + 73 + 121);
    assert!(db.raw.iter().all(|x| x.is_finite()));
    // The built-in clips loop (their last pose is their first); the turn does not.
    for k in 0..c.clips.len() {
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
    let (c, turn) = with_turn();
    let db = build_database(&c, &[], &MatchWeights::default()).unwrap();
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
            skinscope::anim::yaw_of(r)
        };
        turn(t) - turn(0.0)
    };
    let walk = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "walk")
        .unwrap();
    // Walk at 0.25 s (it walks in place, facing +Z, its hips swaying): the left foot from the
    // pelvis's ground point and its velocity over the next 1/60 s, turned into the heading.
    let f = db
        .frames
        .iter()
        .position(|f| f.clip == walk && (f.time_secs - 0.25).abs() < 1e-4)
        .unwrap();
    let (j, p) = (db.joints.left_foot, db.joints.hips);
    let t = 0.25;
    let to_facing = Quat::from_rotation_y(-heading(walk, t));
    let foot = to_facing * (at(walk, t, j) - at(walk, t, p).with_y(0.0));
    let velocity = to_facing * (at(walk, t + 1.0 / 60.0, j) - at(walk, t, j)) * 60.0;
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
    let c = skinscope::builtin::character().unwrap();
    let e = build_database(&c, &[99], &MatchWeights::default()).unwrap_err();
    assert!(e.to_string().contains("no clip"), "{e}");
    // A spine without legs (a BVH of two joints): no feet to read.
    let dir = std::env::temp_dir().join(format!("skinscope-mm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("spine.bvh");
    std::fs::write(
        &path,
        "HIERARCHY\nROOT Hips\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nJOINT Spine\n{\nOFFSET 0 0.3 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 0.3 0\n}\n}\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0 0 0 0\n0 10 0 0 0 0\n",
    )
    .unwrap();
    let spine = skinscope::import::load(&path).unwrap();
    let e = build_database(&spine, &[], &MatchWeights::default()).unwrap_err();
    assert!(e.to_string().contains("spine.bvh: no two legs"), "{e}");
}
