//! Models opened from files given by hand (what a browser page reads: the files the user picked
//! or dropped, never the disk): the same character as from the disk, their URIs resolved among
//! them alone.

use std::path::Path;

use skinscope::import::given::GivenFiles;
use skinscope::import::{LoadOptions, Reach, load, load_with};

const SHARED: &str = "../shared/gltf";

/// Every file of a shared model's folder, keyed as a dropped folder gives them (`Folder/name`).
fn folder_given(folder: &str) -> GivenFiles {
    let dir = Path::new(SHARED).join(folder);
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let files = std::fs::read_dir(&dir).unwrap().map(|entry| {
        let path = entry.unwrap().path();
        let key = format!("{name}/{}", path.file_name().unwrap().to_string_lossy());
        (key, std::fs::read(&path).unwrap())
    });
    GivenFiles::new(files)
}

fn given(files: &GivenFiles) -> LoadOptions {
    LoadOptions {
        reach: Reach::Given(files.clone()),
        ..Default::default()
    }
}

#[test]
fn a_gltf_given_with_its_buffers_loads_as_from_the_disk() {
    for (folder, model) in [
        ("SimpleSkin", "SimpleSkin.gltf"),
        ("AssetGenerator/Animation_Skin", "Animation_Skin_01.gltf"),
    ] {
        let files = folder_given(folder);
        let leaf = Path::new(folder).file_name().unwrap().to_string_lossy();
        let key = format!("{leaf}/{model}");
        let from_disk = load(&Path::new(SHARED).join(folder).join(model)).unwrap();
        let from_given = load_with(Path::new(&key), given(&files)).unwrap();
        assert_eq!(from_given.vertex_count(), from_disk.vertex_count(), "{key}");
        assert!(from_given.vertex_count() > 0);
        assert_eq!(
            from_given.skeleton.joint_count(),
            from_disk.skeleton.joint_count()
        );
        let positions = |c: &skinscope::character::Character| {
            c.meshes
                .iter()
                .flat_map(|m| {
                    m.primitives
                        .iter()
                        .flat_map(|p| p.positions.iter().copied())
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(positions(&from_given), positions(&from_disk), "{key}");
        let clips = |c: &skinscope::character::Character| {
            c.clips
                .iter()
                .map(|k| (k.clip.name().to_owned(), k.clip.duration_secs()))
                .collect::<Vec<_>>()
        };
        assert_eq!(clips(&from_given), clips(&from_disk), "{key}");
    }
}

#[test]
fn a_buffer_not_given_or_above_what_was_given_is_refused_by_name() {
    // SimpleSkin without one of its four buffers.
    let all = folder_given("SimpleSkin");
    let some = GivenFiles::new(
        all.names()
            .filter(|n| !n.ends_with("skinAnimation.bin"))
            .map(|n| {
                let bytes = all.read(Path::new(n), u64::MAX).unwrap().to_vec();
                (n.to_string(), bytes)
            }),
    );
    let e = load_with(Path::new("SimpleSkin/SimpleSkin.gltf"), given(&some)).unwrap_err();
    let message = e.to_string();
    assert!(
        message.contains("SimpleSkin/skinAnimation.bin")
            && message.contains("was not among the files given"),
        "{message}"
    );
    // A URI that climbs out of what was given reads nothing, even where the disk has the file.
    let climbing = r#"{"asset":{"version":"2.0"},"buffers":[{"uri":"../../../../etc/hostname","byteLength":4}]}"#;
    let files = GivenFiles::new([("m/x.gltf".to_string(), climbing.as_bytes().to_vec())]);
    let e = load_with(Path::new("m/x.gltf"), given(&files)).unwrap_err();
    assert!(
        e.to_string().contains("climbs above the files given"),
        "{e}"
    );
    // The model itself must be among them.
    let e = load_with(Path::new("elsewhere.glb"), given(&files)).unwrap_err();
    assert!(
        e.to_string().contains("elsewhere.glb") && e.to_string().contains("not among"),
        "{e}"
    );
}

#[test]
fn a_given_bvh_opens_as_a_skeleton_and_adds_its_take_as_clips() {
    let character = skinscope::builtin::character().unwrap();
    let bvh = common::walk_bvh(&character, "given-bvh");
    let text = std::fs::read(&bvh).unwrap();
    let files = GivenFiles::new([("takes/walk.bvh".to_string(), text)]);
    let skeleton = load_with(Path::new("takes/walk.bvh"), given(&files)).unwrap();
    let from_disk = load(&bvh).unwrap();
    assert_eq!(
        skeleton.skeleton.joint_count(),
        from_disk.skeleton.joint_count()
    );
    assert_eq!(skeleton.clips.len(), 1);
    let (clips, _) = skinscope::import::clips_from(
        Path::new("takes/walk.bvh"),
        &character,
        None,
        &Reach::Given(files),
    )
    .unwrap();
    let (disk_clips, _) =
        skinscope::import::clips_from(&bvh, &character, None, &Reach::ModelFolder).unwrap();
    assert_eq!(clips.len(), 1);
    assert_eq!(
        clips[0].clip.duration_secs(),
        disk_clips[0].clip.duration_secs()
    );
}

use crate::common;
