//! A rendered image against a golden one, as the tests compare them: the mean absolute
//! difference per channel (of 255), and the share of pixels off by more than `FAR` in some
//! channel (edges rasterised a little differently by another GPU or driver). The difference
//! image shows each pixel's largest channel difference, magnified four times, as grey, and the
//! pixels far off in red.

/// A channel difference beyond this makes a pixel far off.
pub const FAR: u8 = 24;

/// How far an image may be from its golden one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// The largest mean absolute difference per channel, of 255.
    pub mean: f64,
    /// The largest share of far-off pixels (0.01: 1%).
    pub far_off: f64,
}

impl Default for Tolerance {
    /// The golden images' tolerance of skinscope's own tests: 1.5 and 1%.
    fn default() -> Self {
        Self {
            mean: 1.5,
            far_off: 0.01,
        }
    }
}

impl Tolerance {
    /// `MEAN` or `MEAN,FAR%` (`1.5`, `1.5,1%`); the share defaults to 1%.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "{s:?}: a mean difference (0 to 255), then optionally a share of far-off pixels (1.5 or 1.5,1%)"
            )
        };
        let (mean, far) = match s.split_once(',') {
            Some((m, f)) => (m, Some(f)),
            None => (s, None),
        };
        let mean: f64 = mean.trim().parse().map_err(|_| bad())?;
        let far_off = match far {
            Some(f) => {
                let f = f.trim();
                let (n, percent) = f.strip_suffix('%').map_or((f, false), |n| (n, true));
                let v: f64 = n.trim().parse().map_err(|_| bad())?;
                if percent { v / 100.0 } else { v }
            }
            None => Self::default().far_off,
        };
        if !(0.0..=255.0).contains(&mean) || !(0.0..=1.0).contains(&far_off) {
            return Err(bad());
        }
        Ok(Self { mean, far_off })
    }
}

/// How far one image is from another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    pub mean: f64,
    pub far_off: f64,
}

impl Comparison {
    pub fn within(&self, tolerance: Tolerance) -> bool {
        self.mean <= tolerance.mean && self.far_off <= tolerance.far_off
    }
}

/// Two RGBA8 images of one size compared.
pub fn compare(a: &[u8], b: &[u8]) -> Comparison {
    let total: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    let far = (a.chunks_exact(4).zip(b.chunks_exact(4)))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > FAR))
        .count();
    let pixels = (a.len() / 4).max(1);
    Comparison {
        mean: total as f64 / (4 * pixels) as f64,
        far_off: far as f64 / pixels as f64,
    }
}

/// The difference image of two RGBA8 images of one size.
pub fn difference_image(a: &[u8], b: &[u8]) -> Vec<u8> {
    (a.chunks_exact(4).zip(b.chunks_exact(4)))
        .flat_map(|(p, q)| {
            let d = (p.iter().zip(q.iter()))
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
            if d > FAR {
                [255, 0, 0, 255]
            } else {
                let g = d.saturating_mul(4);
                [g, g, g, 255]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_measured_as_the_tests_measure_them() {
        // Two pixels: one off by 30 in red (far), one off by 4 in each of RGB.
        let a = [0, 0, 0, 255, 10, 10, 10, 255];
        let b = [30, 0, 0, 255, 14, 14, 14, 255];
        let c = compare(&a, &b);
        assert!((c.mean - 42.0 / 8.0).abs() < 1e-12);
        assert_eq!(c.far_off, 0.5);
        assert_eq!(difference_image(&a, &b), [255, 0, 0, 255, 16, 16, 16, 255]);
        assert!(!c.within(Tolerance::default()));
        assert!(c.within(Tolerance {
            mean: 6.0,
            far_off: 0.5
        }));
    }

    #[test]
    fn tolerances_parse_with_or_without_a_share() {
        assert_eq!(
            Tolerance::parse("2").unwrap(),
            Tolerance {
                mean: 2.0,
                far_off: 0.01
            }
        );
        assert_eq!(
            Tolerance::parse("1.5,2%").unwrap(),
            Tolerance {
                mean: 1.5,
                far_off: 0.02
            }
        );
        assert_eq!(
            Tolerance::parse("1,0.5").unwrap(),
            Tolerance {
                mean: 1.0,
                far_off: 0.5
            }
        );
        assert!(Tolerance::parse("-1").is_err());
        assert!(Tolerance::parse("1,200%").is_err());
        assert!(Tolerance::parse("x").is_err());
    }
}
