//! The character core's refusals, by name: bad input and the error it gets (the ground's JSON,
//! a side file that is not a bounded regular file).

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
