//! Retargeting: joints matched by their names across conventions, a clip carried onto
//! a renamed copy of its own skeleton unchanged, and a T-pose source driving an A-pose target
//! with its bones pointing where the source's point.

use crate::common;

use glam::{Quat, Vec3};
use skinscope::anim::{
    Channel, Clip, Interpolation, JointTrack, Retarget, Skeleton, Track, Transform, canonical_name,
    match_joints,
};

#[test]
fn names_match_across_conventions() {
    for (a, b) in [
        ("mixamorig:LeftArm", "upperarm_l"),
        ("LeftArm", "Arm.L"),
        ("RightForeArm", "lowerarm_r"),
        ("mixamorig:Hips", "pelvis"),
        ("LeftUpLeg", "thigh_l"),
        ("RightLeg", "calf_r"),
        ("Spine1", "spine_02"),
        ("L_Hand", "hand.l"),
        ("Armature|Head", "head"),
    ] {
        assert_eq!(canonical_name(a), canonical_name(b), "{a} and {b}");
    }
    for (a, b) in [
        ("LeftArm", "RightArm"),
        ("LeftArm", "LeftForeArm"),
        ("LHipJoint", "LeftUpLeg"),
        ("forearm_twist_l", "forearm_l"),
    ] {
        assert_ne!(canonical_name(a), canonical_name(b), "{a} and {b}");
    }
}

/// The built-in character's walk.
fn walk_of(c: &skinscope::character::Character) -> Clip {
    let walk = c.clips.iter().find(|k| k.clip.name() == "walk");
    walk.unwrap().clip.clone()
}

#[test]
fn a_clip_onto_a_renamed_copy_of_its_skeleton_is_unchanged() {
    let c = skinscope::builtin::character().unwrap();
    let source = &c.skeleton;
    let names: Vec<String> = source.names().iter().map(|n| format!("rig_{n}")).collect();
    let parents = (0..source.joint_count())
        .map(|j| source.parent(j))
        .collect();
    let target = Skeleton::new(names.clone(), parents, source.rest().to_vec()).unwrap();
    // Renamed out of every convention: matched through a map.
    let map: Vec<(String, String)> = source.names().iter().cloned().zip(names).collect();
    let source_of = match_joints(source, &target, Some(&map));
    assert!(source_of.iter().enumerate().all(|(t, s)| *s == Some(t)));
    let walk = &walk_of(&c);
    let times: Vec<f32> = (0..=30).map(|k| k as f32 / 30.0).collect();
    let retarget = Retarget::new(source, &target, source_of);
    let moved = retarget
        .clip(source, walk, &target, &times, "walk")
        .unwrap();
    let height = skinscope::pose::character_height(&c);
    for &t in &times {
        let (want, got) = (
            common::joint_positions(source, walk, t),
            common::joint_positions(&target, &moved, t),
        );
        for (j, (a, b)) in want.iter().zip(&got).enumerate() {
            assert!(
                (*a - *b).length() < 1e-6 * height,
                "t {t}, joint {}: {a} vs {b}",
                source.names()[j]
            );
        }
    }
}

fn skeleton(names: &[&str], offsets: &[Vec3]) -> Skeleton {
    let parents = (0..names.len()).map(|j| j.checked_sub(1)).collect();
    let rest = offsets
        .iter()
        .map(|&translation| Transform {
            translation,
            ..Transform::IDENTITY
        })
        .collect();
    Skeleton::new(names.iter().map(|n| n.to_string()).collect(), parents, rest).unwrap()
}

#[test]
fn a_t_pose_source_drives_an_a_pose_target_bone_for_bone() {
    // The source's arm points along +X at rest (T-pose); the target's 45 degrees down (A-pose).
    let source = skeleton(
        &["Hips", "LeftArm", "LeftForeArm", "LeftHand"],
        &[
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.2, 0.5, 0.0),
            Vec3::new(0.3, 0.0, 0.0),
            Vec3::new(0.25, 0.0, 0.0),
        ],
    );
    let down = Quat::from_rotation_z(-45f32.to_radians());
    let target = skeleton(
        &["pelvis", "upperarm_l", "forearm_l", "hand_l"],
        &[
            Vec3::new(0.0, 0.9, 0.0),
            Vec3::new(0.18, 0.45, 0.0),
            down * Vec3::new(0.28, 0.0, 0.0),
            down * Vec3::new(0.22, 0.0, 0.0),
        ],
    );
    // The source raises and swings its arm and bends its elbow over 1 s.
    let times: Vec<f32> = (0..=20).map(|k| k as f32 / 20.0).collect();
    let track = |f: &dyn Fn(f32) -> Quat| {
        Track::new(
            times.clone(),
            times.iter().map(|&t| f(t)).collect(),
            Interpolation::Linear,
        )
        .unwrap()
    };
    let tracks = vec![
        JointTrack {
            joint: 1,
            channel: Channel::Rotation(track(&|t| {
                Quat::from_rotation_z((60.0 * t).to_radians())
                    * Quat::from_rotation_y((-40.0 * t).to_radians())
            })),
        },
        JointTrack {
            joint: 2,
            channel: Channel::Rotation(track(&|t| Quat::from_rotation_y((-90.0 * t).to_radians()))),
        },
    ];
    let clip = Clip::new("raise", 4, tracks, Vec::new()).unwrap();
    let source_of = match_joints(&source, &target, None);
    assert_eq!(source_of, vec![Some(0), Some(1), Some(2), Some(3)]);
    let retarget = Retarget::new(&source, &target, source_of);
    let moved = retarget
        .clip(&source, &clip, &target, &times, "raise")
        .unwrap();
    let mut worst = 0.0f32;
    for &t in &times {
        let (s, g) = (
            common::joint_positions(&source, &clip, t),
            common::joint_positions(&target, &moved, t),
        );
        for bone in [(1, 2), (2, 3)] {
            let want = (s[bone.1] - s[bone.0]).normalize();
            let got = (g[bone.1] - g[bone.0]).normalize();
            worst = worst.max(want.angle_between(got).to_degrees());
        }
    }
    assert!(worst < 1.0, "bones up to {worst} degrees off the source's");
    // Without the alignment the target's arm would hang 45 degrees below the source's: the
    // retargeted clip is not the source's rotations copied.
    let (s, g) = (
        common::joint_positions(&source, &clip, 0.0),
        common::joint_positions(&target, &moved, 0.0),
    );
    assert!(((g[2] - g[1]).normalize() - (s[2] - s[1]).normalize()).length() < 1e-3);
    let copied = Clip::new("copied", 4, clip.tracks().to_vec(), Vec::new()).unwrap();
    let c = common::joint_positions(&target, &copied, 0.0);
    assert!(
        (c[2] - c[1])
            .normalize()
            .angle_between(Vec3::X)
            .to_degrees()
            > 44.0
    );
}

#[test]
fn a_bvh_of_a_clip_added_with_clips_from_poses_as_the_clip_does() {
    // The walk written as a BVH take and added back with --clips-from: every joint where the
    // walk puts it, within 1e-3 of the character's height, at frames and between them.
    let c = skinscope::builtin::character().unwrap();
    let walk = &walk_of(&c);
    let dir = common::temp_dir("clips-from");
    let take = dir.join("take.bvh");
    std::fs::write(&take, common::bvh_of(&c, walk)).unwrap();
    let height = skinscope::pose::character_height(&c);
    let palette = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["palette", "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = common::skinscope(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let take = take.to_str().unwrap();
    for time in ["0", "0.25", "0.5", "0.8"] {
        let want = palette(&["--clip", "walk", "--time", time]);
        let got = palette(&["--clips-from", take, "--clip", "take", "--time", time]);
        common::assert_joints_match(&c, &want, &got, 1e-3 * height, time);
    }
    // A take whose joints match nothing is refused, naming the file and the way out.
    let strange = dir.join("strange.bvh");
    std::fs::write(
        &strange,
        "HIERARCHY\nROOT Blob\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n",
    )
    .unwrap();
    let (code, _, err) = common::skinscope(&["palette", "--clips-from", strange.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(
        err.contains("strange.bvh") && err.contains("--retarget-map"),
        "{err}"
    );
    // With a map naming the match, it is added.
    let map = dir.join("map.json");
    std::fs::write(&map, r#"{"Blob": "head"}"#).unwrap();
    let (code, _, err) = common::skinscope(&[
        "palette",
        "--clips-from",
        strange.to_str().unwrap(),
        "--retarget-map",
        map.to_str().unwrap(),
        "--clip",
        "strange",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn the_viewer_adds_a_take_to_the_character_and_plays_it() {
    use skinscope::viewer::{UiCommand, Viewer};
    let c = skinscope::builtin::character().unwrap();
    let walk = walk_of(&c);
    let dir = common::temp_dir("viewer-clips-from");
    let take = dir.join("take.bvh");
    std::fs::write(&take, common::bvh_of(&c, &walk)).unwrap();
    let mut viewer = Viewer::new(c, None);
    let before = viewer.character.clips.len();
    viewer.frame(vec![UiCommand::AddClips(take.clone())], 1.0 / 60.0);
    assert_eq!(viewer.character.clips.len(), before + 1);
    assert_eq!(viewer.character.clips[before].clip.name(), "take");
    assert_eq!(viewer.pose_request().clip.unwrap().clip, before);
    assert!(viewer.load_error.is_none());
    // Played, the take moves the pelvis as the walk does (the take's viewer has played one
    // frame more: the one it was added in).
    let mut walking = Viewer::new(skinscope::builtin::character().unwrap(), None);
    walking.frame(Vec::new(), 1.0 / 60.0);
    for v in [&mut viewer, &mut walking] {
        for _ in 0..20 {
            v.frame(Vec::new(), 1.0 / 60.0);
        }
    }
    let pelvis = viewer.character.skeleton.find("pelvis").unwrap();
    let at = |v: &Viewer| Vec3::from(v.pose.model.as_slice()[pelvis].translation);
    assert!(
        (at(&viewer) - at(&walking)).length() < 2e-3,
        "{} vs {}",
        at(&viewer),
        at(&walking)
    );
    // A file that is not a take: the error names it, the character stays as it was.
    let bad = dir.join("bad.bvh");
    std::fs::write(&bad, "HIERARCHY\nROOT\n").unwrap();
    viewer.frame(vec![UiCommand::AddClips(bad)], 1.0 / 60.0);
    let error = viewer.load_error.clone().unwrap();
    assert!(error.contains("bad.bvh: line 2"), "{error}");
    assert_eq!(viewer.character.clips.len(), before + 1);
}
