//! The pose's fast paths give what the plain stages give, to the bit: the palette written as
//! local-to-model composes each joint (then brought into a transformed mesh node's space), and
//! a clip's constant tracks left in place when a pose is sampled again from the same clip.

use skinscope_testkit as common;

use common::{gltf_files, shared};
use glam::{Mat4, Quat, Vec3};
use skinscope_anim::{
    self as anim, Channel, Clip, ClipCursor, Interpolation, JointTrack, LocalPose, ModelPose,
    Property, Track,
};
use skinscope_core::character::Character;
use skinscope_core::pose::{CharacterPose, PaletteMode, PoseRequest};

fn bits(m: &Mat4) -> [u32; 16] {
    m.to_cols_array().map(f32::to_bits)
}

/// The palettes and `world_from_mesh` of `pose`'s local pose, by the plain stages:
/// `local_to_model`, then each instance's `instance_palette_into`.
fn plain_palettes(c: &Character, pose: &CharacterPose, mode: PaletteMode) -> (Vec<Mat4>, usize) {
    let local = match mode {
        PaletteMode::Bind => LocalPose::rest(&c.skeleton),
        _ => pose.local().clone(),
    };
    let mut model = ModelPose::new(&c.skeleton);
    anim::local_to_model(&c.skeleton, &local, &mut model).unwrap();
    let mut palette = pose.palette.clone();
    let mut moved = 0;
    for (instance, &base) in c.instances.iter().zip(&pose.palette_base) {
        let Some(skin) = instance.skin.map(|s| &c.skins[s].skin) else {
            continue;
        };
        if c.world_from_mesh(instance, &model) != Mat4::IDENTITY {
            moved += 1;
        }
        let out = &mut palette[base as usize..base as usize + skin.len()];
        c.instance_palette_into(instance, &model, out).unwrap();
    }
    (palette, moved)
}

#[test]
fn every_shared_file_poses_its_palettes_like_the_plain_stages_to_the_bit() {
    let mut files = 0;
    let mut moved_meshes = 0;
    let mut entries = 0;
    for path in gltf_files(&shared("")) {
        let Ok(c) = skinscope_import::load(&path) else {
            continue;
        };
        files += 1;
        let mut pose = CharacterPose::new(&c);
        let mut requests = vec![PoseRequest::rest(PaletteMode::Bind)];
        for k in 0..c.clips.len() {
            let d = c.clips[k].duration_secs();
            requests.extend([0.0, 0.37, 0.81].map(|f| PoseRequest::at(Some(k), f * d)));
        }
        for request in &requests {
            pose.evaluate(&c, request).unwrap();
            let (want, moved) = plain_palettes(&c, &pose, request.palette);
            moved_meshes += moved;
            entries += want.len();
            for (e, (got, want)) in pose.palette.iter().zip(&want).enumerate() {
                assert_eq!(
                    bits(got),
                    bits(want),
                    "{}: palette entry {e}",
                    path.display()
                );
            }
        }
    }
    // The corpus has skinned meshes under transformed nodes (CesiumMan, RiggedFigure,
    // RiggedSimple, Animation_Skin_02) and a file with two skins (Animation_Skin_06).
    assert!(files >= 15, "{files} files");
    assert!(
        moved_meshes >= 4,
        "{moved_meshes} poses of moved mesh nodes"
    );
    assert!(entries > 500, "{entries} entries compared");
}

/// The Fox with every joint's translation, rotation and scale keyed: the undriven ones one key
/// at rest (gltf2ozz's fill), scale as two equal keys (a constant track as exporters bake it).
fn fox_every_track() -> (Character, usize) {
    let mut fox = skinscope_import::load(&shared("Fox/Fox.glb")).unwrap();
    let walk = fox
        .clips
        .iter()
        .position(|k| k.clip.name() == "Walk")
        .unwrap();
    let original = &fox.clips[walk].clip;
    let mut tracks = original.tracks().to_vec();
    let rest = fox.skeleton.rest().to_vec();
    for (joint, rest) in rest.iter().enumerate() {
        let linear = Interpolation::Linear;
        let missing = |p: Property| {
            !tracks
                .iter()
                .any(|t| t.joint == joint && t.channel.property() == p)
        };
        let mut add = Vec::new();
        if missing(Property::Translation) {
            let t = Track::new(vec![0.0], vec![rest.translation], linear).unwrap();
            add.push(Channel::Translation(t));
        }
        if missing(Property::Rotation) {
            let t = Track::new(vec![0.0], vec![rest.rotation], linear).unwrap();
            add.push(Channel::Rotation(t));
        }
        if missing(Property::Scale) {
            let t = Track::new(vec![0.0, 0.5], vec![rest.scale; 2], linear).unwrap();
            add.push(Channel::Scale(t));
        }
        tracks.extend(add.into_iter().map(|channel| JointTrack { joint, channel }));
    }
    let clip = Clip::new(
        original.name(),
        original.joint_count(),
        tracks,
        original.events().to_vec(),
    )
    .unwrap();
    fox.clips[walk].clip = clip;
    (fox, walk)
}

#[test]
fn a_pose_sampled_again_from_its_clip_keeps_the_constant_tracks_and_matches_a_fresh_one() {
    let (fox, walk) = fox_every_track();
    let survey = fox
        .clips
        .iter()
        .position(|k| k.clip.name() == "Survey")
        .unwrap();
    // One pose kept over the frames (sampled again from the same clips) against a new pose each
    // frame (sampled from the rest pose), single and blended.
    let mut kept = CharacterPose::new(&fox);
    for frame in 0..90 {
        let t = frame as f32 / 60.0;
        let request = if frame % 30 < 15 {
            PoseRequest::at(Some(walk), t)
        } else {
            PoseRequest::clip(walk, t).with_blend(survey, 0.3)
        };
        kept.evaluate(&fox, &request).unwrap();
        let mut fresh = CharacterPose::new(&fox);
        fresh.evaluate(&fox, &request).unwrap();
        assert_eq!(kept.local(), fresh.local(), "frame {frame}");
        for (got, want) in kept.palette.iter().zip(&fresh.palette) {
            assert_eq!(bits(got), bits(want), "frame {frame}");
        }
    }

    // The anim stage itself: sampled again, the constant tracks are not written (a joint
    // changed since keeps the change), while every moving track is.
    let clip = &fox.clips[walk].clip;
    let mut cursor = ClipCursor::new(clip);
    let mut pose = LocalPose::rest(&fox.skeleton);
    anim::sample_clip(&fox.skeleton, clip, 0.2, &mut cursor, &mut pose).unwrap();
    let constant = (clip.tracks().iter())
        .find(|t| matches!(t.channel, Channel::Scale(_)))
        .map(|t| t.joint)
        .unwrap();
    let moving = (clip.tracks().iter())
        .find(|t| matches!(&t.channel, Channel::Rotation(r) if r.times().len() > 2))
        .map(|t| t.joint)
        .unwrap();
    let marker = Vec3::new(2.0, 3.0, 4.0);
    pose.as_mut_slice()[constant].scale = marker;
    pose.as_mut_slice()[moving].rotation = Quat::from_rotation_x(3.0);
    anim::resample_clip(&fox.skeleton, clip, 0.4, &mut cursor, &mut pose).unwrap();
    assert_eq!(pose.as_slice()[constant].scale, marker);
    let mut want = LocalPose::rest(&fox.skeleton);
    anim::sample_clip(&fox.skeleton, clip, 0.4, &mut cursor, &mut want).unwrap();
    assert_eq!(pose.as_slice()[moving], want.as_slice()[moving]);
    // A constant track samples to its key exactly, whatever the time (two equal keys lerped
    // would round).
    assert_eq!(
        want.as_slice()[constant].scale,
        fox.skeleton.rest()[constant].scale
    );
    anim::sample_clip(&fox.skeleton, clip, 0.4, &mut cursor, &mut pose).unwrap();
    assert_eq!(pose, want);
}

#[test]
fn a_crowd_s_members_are_posed_as_each_alone_under_moved_mesh_nodes() {
    // CesiumMan's mesh hangs under transformed nodes (its palette is brought into the node's
    // space); RiggedFigure's too; the Fox's does not. Each member is written into the crowd's
    // arrays as one pose would write its own.
    for (file, clips) in [
        ("CesiumMan/CesiumMan.glb", (0, 0)),
        ("RiggedFigure/RiggedFigure.glb", (0, 0)),
        ("Fox/Fox.glb", (0, 2)),
    ] {
        let c = skinscope_import::load(&shared(file)).unwrap();
        let mut crowd = skinscope_core::pose::Crowd::new(&c, 9, clips, 2.0);
        let time = 0.77;
        crowd.update(&c, time);
        let (len, instances) = (crowd.palette_len(), c.instances.len());
        let (da, db) = (
            c.clips[clips.0].duration_secs(),
            c.clips[clips.1].duration_secs(),
        );
        for k in 0..9 {
            let phase = (k as f32 * 0.618_034).fract();
            let weight = (k as f32 * 0.414_213_57).fract();
            let cycle = da + (db - da) * weight;
            let ratio = anim::wrap_time(time / cycle + phase, 1.0);
            let mut pose = CharacterPose::new(&c);
            let request = PoseRequest::clip(clips.0, ratio * da).with_blend(clips.1, weight);
            pose.evaluate(&c, &request).unwrap();
            let got = &crowd.palette[k * len..(k + 1) * len];
            for (e, (got, want)) in got.iter().zip(&pose.palette).enumerate() {
                assert_eq!(bits(got), bits(want), "{file}: member {k}, entry {e}");
            }
            // Placed on a 3 x 3 grid, 2 apart, about the middle.
            let offset = Vec3::new((k % 3) as f32 - 1.0, 0.0, (k / 3) as f32 - 1.0) * 2.0;
            let worlds = &crowd.world_from_mesh[k * instances..(k + 1) * instances];
            for (got, want) in worlds.iter().zip(&pose.world_from_mesh) {
                let want = Mat4::from_translation(offset) * *want;
                assert!(
                    got.abs_diff_eq(want, 1e-5),
                    "{file}: member {k}: {got} against {want}"
                );
            }
        }
    }
}
