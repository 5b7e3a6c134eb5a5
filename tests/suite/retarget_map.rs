//! The retarget map: auto-mapping across naming conventions and by the skeleton's shape, on
//! renamed and re-posed copies of a shared character (CesiumMan), a map by hand, and the
//! retarget pose's offsets.

use std::path::PathBuf;

use crate::common::{self, RawGltf};
use glam::{Quat, Vec3};
use skinscope::anim::{
    BodyChain, JointMap, LocalPose, MatchKind, ModelPose, Retarget, RetargetScratch,
    RetargetSettings, local_to_model, sample_clip, shape_roles,
};
use skinscope::character::Character;

/// CesiumMan's joints by body part (its names say little: `leg_joint_L_1`).
pub const CESIUM_PARTS: [(&str, &str); 19] = [
    ("Skeleton_torso_joint_1", "hips"),
    ("Skeleton_torso_joint_2", "spine"),
    ("torso_joint_3", "chest"),
    ("Skeleton_neck_joint_1", "neck"),
    ("Skeleton_neck_joint_2", "head"),
    ("Skeleton_arm_joint_L__4_", "left upperarm"),
    ("Skeleton_arm_joint_L__3_", "left forearm"),
    ("Skeleton_arm_joint_L__2_", "left hand"),
    ("Skeleton_arm_joint_R", "right upperarm"),
    ("Skeleton_arm_joint_R__2_", "right forearm"),
    ("Skeleton_arm_joint_R__3_", "right hand"),
    ("leg_joint_L_1", "left thigh"),
    ("leg_joint_L_2", "left shin"),
    ("leg_joint_L_3", "left foot"),
    ("leg_joint_L_5", "left toe"),
    ("leg_joint_R_1", "right thigh"),
    ("leg_joint_R_2", "right shin"),
    ("leg_joint_R_3", "right foot"),
    ("leg_joint_R_5", "right toe"),
];

/// The naming conventions a copy can be made in.
pub const CONVENTIONS: [&str; 10] = [
    "mixamo",
    "unreal",
    "rigify",
    "metarig",
    "vrm",
    "vroid",
    "cmu",
    "truebones",
    "mannequin",
    "unknown",
];

/// What `convention` calls body part `part` (`left thigh`); `k`: the joint's place, for names
/// that say nothing.
pub fn convention_name(convention: &str, part: &str, k: usize) -> String {
    let (side, part) = match part.split_once(' ') {
        Some((s, p)) => (Some(s), p),
        None => (None, part),
    };
    let cap = |s: &str| s[..1].to_uppercase() + &s[1..];
    let (word, letter) = match side {
        Some(s) => (cap(s), cap(&s[..1])),
        None => (String::new(), String::new()),
    };
    let lower = letter.to_lowercase();
    let centre = |name: &str| name.to_string();
    match convention {
        "mixamo" => format!(
            "mixamorig:{}",
            match part {
                "hips" => centre("Hips"),
                "spine" => centre("Spine"),
                "chest" => centre("Spine1"),
                "neck" => centre("Neck"),
                "head" => centre("Head"),
                "upperarm" => format!("{word}Arm"),
                "forearm" => format!("{word}ForeArm"),
                "hand" => format!("{word}Hand"),
                "thigh" => format!("{word}UpLeg"),
                "shin" => format!("{word}Leg"),
                "foot" => format!("{word}Foot"),
                _ => format!("{word}ToeBase"),
            }
        ),
        "unreal" => match part {
            "hips" => "pelvis".into(),
            "spine" => "spine_01".into(),
            "chest" => "spine_02".into(),
            "neck" => "neck_01".into(),
            "head" => "head".into(),
            "upperarm" => format!("upperarm_{lower}"),
            "forearm" => format!("lowerarm_{lower}"),
            "shin" => format!("calf_{lower}"),
            "toe" => format!("ball_{lower}"),
            p => format!("{p}_{lower}"),
        },
        "rigify" | "metarig" => {
            let prefix = if convention == "rigify" { "DEF-" } else { "" };
            let name = match part {
                "hips" => "spine".to_string(),
                "spine" => "spine.001".into(),
                "chest" => "spine.002".into(),
                "neck" => "spine.004".into(),
                "head" => "spine.006".into(),
                "upperarm" => format!("upper_arm.{letter}"),
                p => format!("{p}.{letter}"),
            };
            format!("{prefix}{name}")
        }
        "vrm" => match part {
            "upperarm" => format!("{}UpperArm", side.unwrap_or("")),
            "forearm" => format!("{}LowerArm", side.unwrap_or("")),
            "thigh" => format!("{}UpperLeg", side.unwrap_or("")),
            "shin" => format!("{}LowerLeg", side.unwrap_or("")),
            "toe" => format!("{}Toes", side.unwrap_or("")),
            "hand" | "foot" => format!("{}{}", side.unwrap_or(""), cap(part)),
            p => p.to_string(),
        },
        "vroid" => {
            let s = if side.is_some() { letter.as_str() } else { "C" };
            let p = match part {
                "upperarm" => "UpperArm",
                "forearm" => "LowerArm",
                "thigh" => "UpperLeg",
                "shin" => "LowerLeg",
                "toe" => "ToeBase",
                "hips" => "Hips",
                "spine" => "Spine",
                "chest" => "Chest",
                "neck" => "Neck",
                "head" => "Head",
                "hand" => "Hand",
                _ => "Foot",
            };
            format!("J_Bip_{s}_{p}")
        }
        "cmu" => match part {
            "hips" => "Hips".into(),
            "spine" => "LowerBack".into(),
            "chest" => "Spine".into(),
            "neck" => "Neck".into(),
            "head" => "Head".into(),
            "upperarm" => format!("{word}Arm"),
            "forearm" => format!("{word}ForeArm"),
            "hand" => format!("{word}Hand"),
            "thigh" => format!("{word}UpLeg"),
            "shin" => format!("{word}Leg"),
            "foot" => format!("{word}Foot"),
            _ => format!("{word}ToeBase"),
        },
        "truebones" => match part {
            "hips" => "Bip01 Pelvis".into(),
            "spine" => "Bip01 Spine".into(),
            "chest" => "Bip01 Spine1".into(),
            "neck" => "Bip01 Neck".into(),
            "head" => "Bip01 Head".into(),
            "upperarm" => format!("Bip01 {letter} UpperArm"),
            "forearm" => format!("Bip01 {letter} Forearm"),
            "hand" => format!("Bip01 {letter} Hand"),
            "thigh" => format!("Bip01 {letter} Thigh"),
            "shin" => format!("Bip01 {letter} Calf"),
            "foot" => format!("Bip01 {letter} Foot"),
            _ => format!("Bip01 {letter} Toe0"),
        },
        "mannequin" => match part {
            "hips" => "pelvis".into(),
            "spine" => "spine_01".into(),
            "chest" => "spine_02".into(),
            "neck" | "head" => part.into(),
            p => format!("{p}_{lower}"),
        },
        _ => format!("Bone.{k:03}"),
    }
}

/// A copy of CesiumMan with its joints named in `convention` and, `reposed`, its upper arms
/// turned 40 degrees down at rest (a T-pose figure made an A-pose one; the inverse binds are
/// kept, so the mesh shows the new rest pose).
pub fn cesium_copy(convention: &str, reposed: bool, dir: &std::path::Path) -> PathBuf {
    let path = common::shared("CesiumMan/CesiumMan.glb");
    let c = skinscope::import::load(&path).unwrap();
    let mut raw = RawGltf::read_glb(&path);
    let rest = common::rest_model(&c.skeleton);
    for (k, (name, part)) in CESIUM_PARTS.iter().enumerate() {
        let j = c.skeleton.find(name).unwrap();
        let node = c.node_of_skeleton_joint[j];
        raw.json["nodes"][node]["name"] = convention_name(convention, part, k).into();
        if reposed && part.ends_with("upperarm") {
            let child = c.skeleton.find(CESIUM_PARTS[k + 1].0).unwrap();
            let at = |j: usize| Vec3::from(rest.as_slice()[j].translation);
            let dir = (at(child) - at(j)).normalize();
            let axis = dir.cross(Vec3::NEG_Y).normalize();
            let swing = Quat::from_axis_angle(axis, 40f32.to_radians());
            let parent = c.skeleton.parent(j).unwrap();
            let (_, parent_rotation, _) = rest.as_slice()[parent].to_scale_rotation_translation();
            let local = c.skeleton.rest()[j].rotation;
            let turned = (parent_rotation.inverse() * swing * parent_rotation * local).normalize();
            raw.json["nodes"][node]["rotation"] = serde_json::json!(turned.to_array());
        }
    }
    let out = dir.join(format!(
        "cesium-{convention}{}.glb",
        if reposed { "-a-pose" } else { "" }
    ));
    std::fs::write(&out, raw.to_glb()).unwrap();
    out
}

/// Each CesiumMan part's joint in `c` (a copy), by the copy's names.
fn part_joints(c: &Character, convention: &str) -> Vec<(usize, &'static str)> {
    CESIUM_PARTS
        .iter()
        .enumerate()
        .map(|(k, (_, part))| {
            let name = convention_name(convention, part, k);
            let j = c.skeleton.find(&name).unwrap_or_else(|| panic!("{name}"));
            (j, *part)
        })
        .collect()
}

#[test]
fn cesium_man_reads_by_shape_as_a_rigger_names_it() {
    let c = skinscope::import::load(&common::shared("CesiumMan/CesiumMan.glb")).unwrap();
    let roles = shape_roles(&c.skeleton);
    for (name, part) in CESIUM_PARTS {
        let j = c.skeleton.find(name).unwrap();
        // The shape reads the whole spine as `spine`: the chest is its top.
        let expected = if part == "chest" { "spine" } else { part };
        assert_eq!(roles[j].as_deref(), Some(expected), "{name}");
    }
    // The armature and the mesh node are no body part.
    assert_eq!(roles[c.skeleton.find("Z_UP").unwrap()], None);
    assert_eq!(roles[c.skeleton.find("Cesium_Man").unwrap()], None);
}

#[test]
fn every_convention_maps_onto_every_other_and_says_how() {
    let dir = common::temp_dir("retarget-conventions");
    let load = |convention: &str, reposed: bool| {
        skinscope::import::load(&cesium_copy(convention, reposed, &dir)).unwrap()
    };
    let sources: Vec<Character> = CONVENTIONS.iter().map(|c| load(c, false)).collect();
    let targets: Vec<Character> = CONVENTIONS.iter().map(|c| load(c, true)).collect();
    for (sc, source) in CONVENTIONS.iter().zip(&sources) {
        let source_parts = part_joints(source, sc);
        for (tc, target) in CONVENTIONS.iter().zip(&targets) {
            let map = JointMap::auto(&source.skeleton, &target.skeleton);
            for (t, part) in part_joints(target, tc) {
                let (s, kind) =
                    map.source_of[t].unwrap_or_else(|| panic!("{sc} -> {tc}: {part} not matched"));
                let (_, source_part) =
                    source_parts
                        .iter()
                        .find(|(j, _)| *j == s)
                        .unwrap_or_else(|| {
                            panic!("{sc} -> {tc}: {part} from {}", source.skeleton.names()[s])
                        });
                assert_eq!(*source_part, part, "{sc} -> {tc}");
                let same_name = source.skeleton.names()[s] == target.skeleton.names()[t];
                let allowed: &[MatchKind] = if same_name {
                    &[MatchKind::Exact]
                } else if *sc == "unknown" || *tc == "unknown" {
                    &[MatchKind::Hierarchy]
                } else {
                    &[MatchKind::Convention]
                };
                assert!(allowed.contains(&kind), "{sc} -> {tc}: {part} by {kind:?}");
            }
            // Nothing else of the target is driven but nodes of the same name (the armature and
            // the mesh node): they keep still unless the source moves them.
            let parts: Vec<usize> = part_joints(target, tc).iter().map(|(j, _)| *j).collect();
            for (t, m) in map.source_of.iter().enumerate() {
                if let (Some((s, kind)), false) = (m, parts.contains(&t)) {
                    assert_eq!(
                        *kind,
                        MatchKind::Exact,
                        "{sc} -> {tc}: {}",
                        target.skeleton.names()[t]
                    );
                    assert_eq!(source.skeleton.names()[*s], target.skeleton.names()[t]);
                }
            }
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Every joint's model-space position, `c` playing `clip` at `t`; with `rest_but`, every
/// translation but that joint's is the rest's (what a rotation retarget carries).
fn positions(
    c: &Character,
    clip: &skinscope::anim::Clip,
    t: f32,
    rest_but: Option<usize>,
) -> Vec<Vec3> {
    let mut local = LocalPose::rest(&c.skeleton);
    let mut cursor = skinscope::anim::ClipCursor::new(clip);
    sample_clip(&c.skeleton, clip, t, &mut cursor, &mut local).unwrap();
    if let Some(keep) = rest_but {
        for (j, l) in local.as_mut_slice().iter_mut().enumerate() {
            if j != keep {
                l.translation = c.skeleton.rest()[j].translation;
            }
        }
    }
    let mut model = ModelPose::new(&c.skeleton);
    local_to_model(&c.skeleton, &local, &mut model).unwrap();
    model
        .as_slice()
        .iter()
        .map(|m| Vec3::from(m.translation))
        .collect()
}

#[test]
fn a_take_onto_a_renamed_a_posed_copy_puts_every_joint_where_the_source_has_it() {
    let dir = common::temp_dir("retarget-a-pose");
    let source = skinscope::import::load(&common::shared("CesiumMan/CesiumMan.glb")).unwrap();
    let height = skinscope::pose::character_height(&source);
    for convention in ["mixamo", "unknown"] {
        let target = skinscope::import::load(&cesium_copy(convention, true, &dir)).unwrap();
        let map = JointMap::auto(&source.skeleton, &target.skeleton);
        let retarget = Retarget::new(&source.skeleton, &target.skeleton, map.indices());
        let clip = &source.clips[0].clip;
        let times: Vec<f32> = (0..=48).map(|k| k as f32 / 24.0).collect();
        let moved = retarget
            .clip(&source.skeleton, clip, &target.skeleton, &times, "take")
            .unwrap();
        let mut worst = 0.0f32;
        // At the keys and between them.
        for t in (0..48).map(|k| k as f32 / 24.0) {
            // CesiumMan's clip moves its shoulders a few millimetres off their rest offsets,
            // which a rotation retarget leaves at the target's rest: compared without.
            let hips = source.skeleton.find("Skeleton_torso_joint_1");
            let (a, b) = (
                positions(&source, clip, t, hips),
                positions(&target, &moved, t, None),
            );
            for (name, _) in CESIUM_PARTS {
                let j = source.skeleton.find(name).unwrap();
                worst = worst.max(a[j].distance(b[j]));
            }
        }
        println!(
            "{convention}: worst joint {:.2e} of the height",
            worst / height
        );
        assert!(worst < 1e-4 * height, "{convention}: {worst}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_map_by_hand_overrides_and_keeps_what_auto_mapping_agrees_with() {
    let dir = common::temp_dir("retarget-by-hand");
    let source = skinscope::import::load(&cesium_copy("mixamo", false, &dir)).unwrap();
    let target = skinscope::import::load(&cesium_copy("unreal", true, &dir)).unwrap();
    let (s, t) = (&source.skeleton, &target.skeleton);
    let mut map = JointMap::auto(s, t);
    let hand_l = t.find("hand_l").unwrap();
    let hand_r = s.find("mixamorig:RightHand").unwrap();
    map.set(hand_l, Some(hand_r));
    assert_eq!(map.source_of[hand_l], Some((hand_r, MatchKind::Hand)));
    let thigh = t.find("thigh_l").unwrap();
    map.set(thigh, None);
    // Saved as pairs and read back: the pairs auto-mapping agrees with keep its kind.
    let again = JointMap::from_pairs(s, t, &map.pairs(s, t));
    assert_eq!(again.source_of[hand_l], Some((hand_r, MatchKind::Hand)));
    assert_eq!(again.source_of[thigh], None);
    let calf = t.find("calf_l").unwrap();
    assert_eq!(
        again.source_of[calf],
        Some((s.find("mixamorig:LeftLeg").unwrap(), MatchKind::Convention))
    );
    assert_eq!(again, map);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_chain_offset_turns_the_whole_chain_in_the_retarget_pose() {
    let source = skinscope::import::load(&common::shared("CesiumMan/CesiumMan.glb")).unwrap();
    let s = &source.skeleton;
    let map = JointMap::auto(s, s);
    let pose_of = |settings: RetargetSettings| {
        let retarget = Retarget::with(s, s, map.indices(), settings);
        let mut scratch = RetargetScratch::new(s, s);
        let mut out = LocalPose::rest(s);
        retarget
            .frame((s, &LocalPose::rest(s)), s, &mut scratch, &mut out)
            .unwrap();
        let mut model = ModelPose::new(s);
        local_to_model(s, &out, &mut model).unwrap();
        model
            .as_slice()
            .iter()
            .map(|m| Vec3::from(m.translation))
            .collect::<Vec<_>>()
    };
    let plain = pose_of(RetargetSettings::default());
    let mut settings = RetargetSettings::default();
    settings.offsets[BodyChain::LeftArm.index()] = Vec3::new(0.0, 0.0, -30.0);
    let turned = pose_of(settings);
    let j = |n: &str| s.find(n).unwrap();
    let (shoulder, elbow, hand) = (
        j("Skeleton_arm_joint_L__4_"),
        j("Skeleton_arm_joint_L__3_"),
        j("Skeleton_arm_joint_L__2_"),
    );
    // The retarget pose of a skeleton onto itself is its rest; the offset turns the arm about
    // the shoulder by 30 degrees about -Z, elbow and hand alike, and nothing else.
    let rest = common::rest_model(s);
    for (k, p) in plain.iter().enumerate() {
        let at = Vec3::from(rest.as_slice()[k].translation);
        assert!(p.distance(at) < 1e-4, "{}", s.names()[k]);
    }
    let turn = Quat::from_rotation_z(-30f32.to_radians());
    for k in [elbow, hand] {
        let expected = plain[shoulder] + turn * (plain[k] - plain[shoulder]);
        assert!(turned[k].distance(expected) < 1e-4, "{}", s.names()[k]);
    }
    for k in (0..s.joint_count()).filter(|k| ![elbow, hand].contains(k)) {
        assert!(turned[k].distance(plain[k]) < 1e-5, "{}", s.names()[k]);
    }
}

#[test]
fn a_skeleton_of_many_thousand_joints_maps_without_hanging() {
    use skinscope::anim::{Skeleton, Transform};
    // Two of 40,000 joints: a hips, two legs and a spine of 13,000 joints each, every joint of
    // a chain named alike (the worst case for lookups by name). Quadratic matching would pair
    // 1.6e9 joints; a limit of a minute only catches a hang.
    let chain = |names: [&str; 3]| {
        let mut n = vec!["hips".to_string()];
        let mut parents = vec![None];
        let mut rest = vec![Transform::IDENTITY];
        let steps = [
            glam::Vec3::new(0.1, -1e-4, 0.0),
            glam::Vec3::new(-0.1, -1e-4, 0.0),
            glam::Vec3::new(0.0, 1e-4, 0.0),
        ];
        for (name, step) in names.iter().zip(steps) {
            for i in 0..13_000 {
                n.push(name.to_string());
                parents.push(Some(if i == 0 { 0 } else { n.len() - 2 }));
                let mut t = Transform::IDENTITY;
                t.translation = if i == 0 { step * 1000.0 } else { step };
                rest.push(t);
            }
        }
        Skeleton::new(n, parents, rest).unwrap()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let source = chain(["LeftUpLeg", "RightUpLeg", "Spine"]);
        let target = chain(["thigh_l", "thigh_r", "bone"]);
        let map = JointMap::auto(&source, &target);
        let retarget = Retarget::new(&source, &target, map.indices());
        let mut scratch = RetargetScratch::new(&source, &target);
        let mut out = LocalPose::rest(&target);
        retarget
            .frame(
                (&source, &LocalPose::rest(&source)),
                &target,
                &mut scratch,
                &mut out,
            )
            .unwrap();
        tx.send(map.source_of.iter().flatten().count()).unwrap();
    });
    let matched = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("auto-mapping 40,000 joints still running after a minute");
    // Every joint: the hips; both legs by the convention table (the joints of a name share its
    // first source joint); the spine's `bone`s, which name no part, by the shape, end to end.
    assert_eq!(matched, 1 + 3 * 13_000);
}

/// A chain of joints named `names`, each a step up from its parent: only the names count here.
fn named(names: &[&str]) -> skinscope::anim::Skeleton {
    let parents = (0..names.len()).map(|k| k.checked_sub(1)).collect();
    let mut step = skinscope::anim::Transform::IDENTITY;
    step.translation = Vec3::Y * 0.1;
    let rest = vec![step; names.len()];
    skinscope::anim::Skeleton::new(names.iter().map(|n| n.to_string()).collect(), parents, rest)
        .unwrap()
}

#[test]
fn a_skeleton_s_convention_reads_its_names() {
    use skinscope::anim::canonical_names;
    // Biovision-style BVH (Truebones' older takes): with collars, `Shoulder` is the upper arm
    // and `Hip` the thigh.
    let biovision = named(&[
        "Hips",
        "LeftHip",
        "LeftKnee",
        "LeftAnkle",
        "Chest",
        "LeftCollar",
        "LeftShoulder",
        "LeftElbow",
        "LeftWrist",
    ]);
    assert_eq!(
        canonical_names(&biovision),
        [
            "hips",
            "left thigh",
            "left shin",
            "left foot",
            "spine1",
            "left shoulder",
            "left upperarm",
            "left forearm",
            "left hand"
        ]
    );
    // Without collars, Mixamo's `LeftShoulder` is the clavicle.
    let mixamo = named(&["mixamorig:LeftShoulder", "mixamorig:LeftArm"]);
    assert_eq!(canonical_names(&mixamo), ["left shoulder", "left upperarm"]);
    // A Blender metarig's spine chain: `spine` is the hips, `spine.006` the head.
    let metarig = named(&[
        "spine",
        "spine.001",
        "spine.002",
        "spine.003",
        "spine.004",
        "spine.005",
        "spine.006",
    ]);
    assert_eq!(
        canonical_names(&metarig),
        ["hips", "spine", "spine1", "spine2", "neck", "neck1", "head"]
    );
    // Mixamo's `Spine` alone is the spine; CMU's `LowerBack` is too (the spine chain is
    // matched end to end).
    assert_eq!(
        canonical_names(&named(&["Hips", "Spine"])),
        ["hips", "spine"]
    );
    assert_eq!(
        canonical_names(&named(&["Hips", "LowerBack", "Spine", "Spine1"])),
        ["hips", "spine", "spine", "spine1"]
    );
    // VRoid's and 3ds Max Biped's prefixes.
    assert_eq!(
        canonical_names(&named(&[
            "J_Bip_C_Hips",
            "J_Bip_L_UpperLeg",
            "Bip01 R Calf",
            "Bip01 L Toe0"
        ])),
        ["hips", "left thigh", "right shin", "left toe"]
    );
    // Noise words and a misspelt part pair loosely.
    let loose = named(&["Hips_Jnt", "Left_Knee_Jnt", "LeftForArm"]);
    let plain = named(&["pelvis", "calf_l", "lowerarm_l"]);
    let map = JointMap::auto(&loose, &plain);
    assert_eq!(map.source_of[1], Some((1, MatchKind::Fuzzy)));
    assert_eq!(map.source_of[2], Some((2, MatchKind::Fuzzy)));
}
