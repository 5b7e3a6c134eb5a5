//! The renderer crate's refusals, by name: an environment's image that is not one, is not a
//! regular file, does not decode, or is too big or too small, each named with its file.

use skinscope_render::panorama::{EnvironmentImage, PanoramaProblem};

/// A Radiance header for `width` x `height` texels, then `pixels` (flat RGBE quadruples).
fn hdr(width: u32, height: u32, pixels: &[u8]) -> Vec<u8> {
    let mut bytes =
        format!("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n").into_bytes();
    bytes.extend_from_slice(pixels);
    bytes
}

#[test]
fn environment_refusals() {
    let dir =
        std::env::temp_dir().join(format!("skinscope-render-refusals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let problem = |name: &str, bytes: Option<&[u8]>| {
        let path = dir.join(name);
        match bytes {
            Some(b) => std::fs::write(&path, b).unwrap(),
            None => std::fs::create_dir_all(&path).unwrap(),
        }
        let e = EnvironmentImage::load(&path).unwrap_err();
        assert_eq!(e.file, path);
        assert!(
            e.to_string().starts_with(&path.display().to_string()),
            "{e}"
        );
        e.problem
    };
    // Not a Radiance or OpenEXR name.
    let p = problem("sky.png", Some(b"not read"));
    assert!(matches!(p, PanoramaProblem::NotHdrOrExr), "{p}");
    // A folder with the right name.
    let p = problem("folder.hdr", None);
    assert!(
        matches!(p, PanoramaProblem::Open(_)) && p.to_string().contains("is a directory"),
        "{p}"
    );
    // Text that is no Radiance header.
    let p = problem("text.hdr", Some(b"hello, world\n"));
    assert!(matches!(p, PanoramaProblem::Decode(_)), "{p}");
    // A header for 16384 x 10900 texels: refused by its size before any texel is read.
    let p = problem("huge.hdr", Some(&hdr(16_384, 10_900, &[])));
    match p {
        PanoramaProblem::TooBig {
            width,
            height,
            most,
            ..
        } => assert_eq!((width, height, most), (16_384, 10_900, 16_384 * 4_096)),
        other => panic!("{other}"),
    }
    // One texel: a panorama needs two at least.
    let p = problem("dot.hdr", Some(&hdr(1, 1, &[128, 128, 128, 129])));
    assert!(
        matches!(
            p,
            PanoramaProblem::TooSmall {
                width: 1,
                height: 1
            }
        ),
        "{p}"
    );
    // Two texels of flat RGBE (128, 128, 128) at exponent 129: radiance 1.0 each.
    let ok = dir.join("two.hdr");
    std::fs::write(&ok, hdr(2, 1, &[128, 128, 128, 129, 128, 128, 128, 129])).unwrap();
    let image = EnvironmentImage::load(&ok).unwrap();
    assert_eq!((image.width, image.height), (2, 1));
    assert_eq!(image.texels, vec![[1.0, 1.0, 1.0]; 2]);
    std::fs::remove_dir_all(&dir).ok();
}
