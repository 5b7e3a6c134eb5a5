//! The character core's refusals, by name: bad input and the error it gets (the ground's JSON,
//! a side file that is not a bounded regular file, a KTX2 image's header).

use std::path::Path;

use skinscope_core::files::{FileError, read_capped, read_text_capped};
use skinscope_core::scene::{Ground, MAX_EXTENT};

/// The ground's parse of `text`: Ok, or (JSON pointer, message).
fn ground(text: &str) -> Result<Ground, (String, String)> {
    Ground::parse(text).map_err(|p| (p.pointer, p.message))
}

fn refused(text: &str, pointer: &str, message: &str) {
    match ground(text) {
        Ok(_) => panic!("{text}: accepted"),
        Err((p, m)) => {
            assert_eq!(p, pointer, "{text}: {m}");
            assert!(m.contains(message), "{text}: {m:?} lacks {message:?}");
        }
    }
}

#[test]
fn ground_refusals() {
    refused("[1, 2]", "", "expected an object");
    refused("{", "", "not JSON");
    refused(r#"{"floor": "low"}"#, "/floor", "expected a finite number");
    refused(
        r#"{"floor": 1e9}"#,
        "/floor",
        &format!("1000000000 is outside -{MAX_EXTENT}..={MAX_EXTENT}"),
    );
    refused(r#"{"steps": {}}"#, "/steps", "expected an array");
    refused(
        r#"{"steps": [{"min": [0, 0], "max": [1, 1]}]}"#,
        "/steps/0/height",
        "missing",
    );
    refused(
        r#"{"steps": [{"min": [1, 0], "max": [0, 1], "height": 0.1}]}"#,
        "/steps/0",
        "min must be below max in x and z",
    );
    refused(
        r#"{"slopes": [{"min": [0, 0], "max": [1, 1], "axis": "y", "from": 0, "to": 1}]}"#,
        "/slopes/0/axis",
        "\"y\" is not x or z",
    );
    refused(
        r#"{"walls": [{"from": [0, 0, 0], "to": [1, 1]}]}"#,
        "/walls/0/from",
        "expected [x, z]",
    );
    refused(
        r#"{"area": {"min": [0, 0]}}"#,
        "/area/max",
        "expected [x, z]",
    );
    // The same shapes, valid, are accepted with the values given.
    let g = ground(r#"{"floor": 0.5, "steps": [{"min": [0, 0], "max": [1, 1], "height": 0.2}]}"#)
        .unwrap();
    // A step's height is above the floor: 0.5 + 0.2 on it, the floor's 0.5 beside it.
    assert!(
        (g.height(0.5, 0.5) - 0.7).abs() < 1e-6,
        "{}",
        g.height(0.5, 0.5)
    );
    assert_eq!(g.height(2.0, 2.0), 0.5);
}

#[test]
fn side_file_refusals() {
    let dir = std::env::temp_dir().join(format!("skinscope-core-refusals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A folder is not a file.
    assert!(matches!(read_capped(&dir, 10), Err(FileError::Directory)));
    // A file over the cap, by its size, before a byte is read.
    let ten = dir.join("ten.bin");
    std::fs::write(&ten, [0xffu8; 10]).unwrap();
    assert!(matches!(
        read_capped(&ten, 9),
        Err(FileError::TooBig { size: 10, cap: 9 })
    ));
    // Text that is not UTF-8.
    assert!(matches!(
        read_text_capped(&ten, 10),
        Err(FileError::NotText(_))
    ));
    // A device never ends: refused before it is read.
    if Path::new("/dev/zero").exists() {
        assert!(matches!(
            read_capped(Path::new("/dev/zero"), 1 << 20),
            Err(FileError::NotRegular)
        ));
    }
    // A ground file that does not exist names the file.
    let missing = dir.join("no-such-ground.json");
    let e = Ground::load(&missing).unwrap_err();
    assert_eq!(e.file, missing);
    assert!(e.to_string().contains("cannot read the file"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A KTX2 header (`KTX 20` identifier, then the fields from byte 12: vkFormat, typeSize,
/// width, height, depth, layers, faces, levels, supercompression) with `levels` level-index
/// entries of (offset, length, uncompressed length) after byte 80.
fn ktx2(fields: [u32; 9], levels: &[[u64; 3]]) -> Vec<u8> {
    let mut b = vec![
        0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
    ];
    b.extend(fields.iter().flat_map(|f| f.to_le_bytes()));
    b.resize(80, 0);
    b.extend(levels.iter().flatten().flat_map(|v| v.to_le_bytes()));
    b
}

#[test]
fn ktx2_refusals() {
    use skinscope_core::basis::{Basis, Ktx2Error};
    // vkFormat, typeSize, width, height, depth, layers, faces, levels, scheme.
    let good = [0, 1, 8, 8, 0, 0, 1, 1, 0];
    let with = |i: usize, v: u32| {
        let mut f = good;
        f[i] = v;
        ktx2(f, &[[0, 0, 0]])
    };
    let cases = [
        (b"PNG".to_vec(), Ktx2Error::NotKtx2),
        (ktx2(good, &[])[..40].to_vec(), Ktx2Error::ShortHeader(40)),
        (with(0, 37), Ktx2Error::VkFormat(37)),
        (
            with(2, 5000),
            Ktx2Error::Size {
                width: 5000,
                height: 8,
                most: 4096,
            },
        ),
        (
            with(5, 2),
            Ktx2Error::NotOneImage {
                depth: 0,
                layers: 2,
                faces: 1,
            },
        ),
        // An 8 x 8 image has 4 levels: 8, 4, 2, 1.
        (
            with(7, 5),
            Ktx2Error::Levels {
                levels: 5,
                width: 8,
                height: 8,
                most: 4,
            },
        ),
        (with(8, 3), Ktx2Error::Supercompression(3)),
        (ktx2(good, &[]), Ktx2Error::ShortIndex),
        (
            ktx2(good, &[[100, 16, 64]]),
            Ktx2Error::LevelPastEnd {
                level: 0,
                length: 16,
                offset: 100,
                size: 104,
            },
        ),
        // Level 0 of 8 x 8 texels is at most 4 blocks of 16 bytes.
        (
            ktx2(good, &[[0, 16, 65]]),
            Ktx2Error::LevelTooBig {
                level: 0,
                inflated: 65,
                width: 8,
                height: 8,
                most: 64,
            },
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(Basis::read(bytes, 4096).err(), Some(expected));
    }
    // A valid header over data the transcoder cannot open.
    let garbage = ktx2(good, &[[0, 16, 64]]);
    let e = Basis::read(garbage, 4096).err().unwrap();
    assert!(
        matches!(e, Ktx2Error::Transcoder { step: "open", .. }),
        "{e}"
    );
    assert!(e.to_string().starts_with("the KTX2 file does not open: "));
}
