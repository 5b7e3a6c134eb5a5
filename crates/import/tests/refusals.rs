//! The importer's refusals: bad input, and the error it gets (the file, the JSON pointer or
//! the line, and the problem).

use std::path::Path;

use skinscope_import as import;
use skinscope_import::bvh::{self, MotionLineError};

/// A refusal's errors: (JSON pointer, message) each.
type Errors = Vec<(String, String)>;

/// The refusal of `bytes` read as `name`: its file and its errors.
fn refused(bytes: &[u8], name: &str) -> (String, Errors) {
    let e = import::load_bytes(bytes, Path::new(name)).unwrap_err();
    let errors = (e.errors.iter()).map(|p| (p.pointer.clone(), p.message.clone()));
    (e.file.display().to_string(), errors.collect())
}

#[test]
fn gltf_refusals() {
    let one = |pointer: &str, message: &str| vec![(pointer.to_string(), message.to_string())];
    let cases: [(&[u8], &str, Errors); 5] = [
        (b"", "empty.gltf", one("", "the file is empty")),
        (
            b"{",
            "brace.gltf",
            one(
                "",
                "not valid glTF JSON: EOF while parsing an object at line 1 column 1",
            ),
        ),
        // A GLB header (magic, version 2, 12 bytes long) and nothing after it.
        (
            b"glTF\x02\0\0\0\x0c\0\0\0",
            "short.glb",
            one("", "the GLB ends before its JSON chunk header"),
        ),
        (
            br#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
                "meshes":[{"primitives":[{"attributes":{"POSITION":7}}]}]}"#,
            "dangling.gltf",
            one(
                "/meshes/0/primitives/0/attributes/POSITION",
                "refers to an object that does not exist",
            ),
        ),
        (
            br#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"children":[0]}]}"#,
            "cycle.gltf",
            one("/nodes/0/children/0", "node 0 lists itself as a child"),
        ),
    ];
    for (bytes, name, expected) in cases {
        assert_eq!(refused(bytes, name), (name.to_string(), expected), "{name}");
    }
}

#[test]
fn bvh_refusals() {
    let take = |channels: &str, frames: &str, time: &str, values: &str| {
        format!(
            "HIERARCHY\nROOT hips\n{{\n OFFSET 0 0 0\n CHANNELS {channels}\n}}\nMOTION\n\
             Frames: {frames}\nFrame Time: {time}\n{values}"
        )
    };
    let cases = [
        (String::new(), 0, "the file ends where HIERARCHY was due"),
        (
            take("3 Xposition Yposition Wrotation", "1", "0.1", "0 0 0\n"),
            5,
            "\"Wrotation\" is not a channel (Xposition ... Zrotation)",
        ),
        (
            take("1 Xposition", "2", "0.1", "0\n"),
            10,
            "the file ends after 1 of its 2 frames",
        ),
        (
            take("1 Xposition", "1", "0", "0\n"),
            9,
            "Frame Time: 0 must be positive",
        ),
    ];
    for (text, line, message) in cases {
        let e = bvh::parse(&text, "take").map(|_| ()).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (line, message), "{text}");
    }
}

#[test]
fn motion_line_refusals() {
    let mut out = Vec::new();
    let cases = [
        ("1 2 3 4", MotionLineError::TooMany { channels: 3 }),
        (
            "1 nan 3",
            MotionLineError::NotANumber { word: "nan".into() },
        ),
        ("1 x 3", MotionLineError::NotANumber { word: "x".into() }),
        (
            "1 2",
            MotionLineError::TooFew {
                values: 2,
                channels: 3,
            },
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(bvh::motion_values(line, 3, &mut out), Err(expected));
    }
    assert_eq!(bvh::motion_values("1 2 3", 3, &mut out), Ok(()));
    assert_eq!(out, [1.0, 2.0, 3.0]);
    assert_eq!(
        MotionLineError::TooFew {
            values: 2,
            channels: 3
        }
        .to_string(),
        "2 values; the hierarchy has 3 channels"
    );
}

#[test]
fn uri_refusals() {
    let dir = skinscope_testkit::temp_dir("import-uri-refusals");
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    let gltf = |uri: &str| {
        format!(r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"uri":"{uri}","byteLength":4}}]}}"#)
    };
    let cases = [
        ("../textures/tri.bin", "cannot read the file: No such file"),
        ("/etc/passwd", "is not a relative path or a data: URI"),
        ("%2Fetc%2Fpasswd", "is not a relative path or a data: URI"),
        (
            "data:application/octet-stream;base64,!!",
            "cannot decode its data: URI",
        ),
    ];
    for (uri, message) in cases {
        let path = models.join("m.gltf");
        std::fs::write(&path, gltf(uri)).unwrap();
        let e = import::load(&path).unwrap_err();
        let (pointer, text) = (&e.errors[0].pointer, &e.errors[0].message);
        assert_eq!(pointer, "/buffers/0/uri", "{uri}: {text}");
        assert!(text.contains(message), "{uri}: {text}");
        // The library names no command-line option: the application adds its own remedy.
        assert!(!text.contains("--"), "{uri}: {text}");
    }
    std::fs::create_dir_all(dir.join("textures")).unwrap();
    std::fs::write(dir.join("textures/tri.bin"), [0u8; 4]).unwrap();
    std::fs::write(models.join("m.gltf"), gltf("../textures/tri.bin")).unwrap();
    let e = import::load(&models.join("m.gltf")).unwrap_err();
    let text = &e.errors[0].message;
    assert!(text.contains("outside the model's folder"), "{text}");
    assert!(
        text.ends_with(&format!("({})", import::WIDER_REACH)),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
