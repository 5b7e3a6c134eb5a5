//! Surface nets over the body's signed distance: the field sampled on a grid, one vertex per
//! cell the surface crosses, one quad per grid edge it crosses.

use glam::Vec3;

/// Grid spacing, metres.
pub(super) const CELL: f32 = 0.01;

/// The body's signed distance sampled on a grid of `CELL`-sized cells around it.
pub(super) struct Grid {
    min: Vec3,
    n: (usize, usize, usize),
    values: Vec<f32>,
}

/// A cell's eight corners and its twelve edges (as corner pairs).
const CORNERS: [(usize, usize, usize); 8] = [
    (0, 0, 0),
    (1, 0, 0),
    (0, 1, 0),
    (1, 1, 0),
    (0, 0, 1),
    (1, 0, 1),
    (0, 1, 1),
    (1, 1, 1),
];
const EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

impl Grid {
    pub(super) fn sample(distance: impl Fn(Vec3) -> f32) -> Self {
        let min = Vec3::new(-0.42, -0.02, -0.16);
        let max = Vec3::new(0.42, 1.82, 0.26);
        let n = ((max - min) / CELL).ceil().as_uvec3() + 1;
        let mut grid = Self {
            min,
            n: (n.x as usize, n.y as usize, n.z as usize),
            values: Vec::new(),
        };
        let (nx, ny, nz) = grid.n;
        grid.values = vec![0.0f32; nx * ny * nz];
        for k in 0..nz {
            for j in 0..ny {
                for i in 0..nx {
                    let at = grid.index(i, j, k);
                    grid.values[at] = distance(grid.point(i, j, k));
                }
            }
        }
        grid
    }

    fn point(&self, i: usize, j: usize, k: usize) -> Vec3 {
        self.min + Vec3::new(i as f32, j as f32, k as f32) * CELL
    }

    fn index(&self, i: usize, j: usize, k: usize) -> usize {
        let (nx, ny, _) = self.n;
        (k * ny + j) * nx + i
    }

    /// One vertex per crossed cell: the mean of its edges' crossings. Returns each cell's
    /// vertex (`u32::MAX` for none) and the vertices.
    pub(super) fn cell_vertices(&self) -> (Vec<u32>, Vec<Vec3>) {
        let (nx, ny, nz) = self.n;
        let mut cell_vertex = vec![u32::MAX; nx * ny * nz];
        let mut positions = Vec::new();
        for k in 0..nz - 1 {
            for j in 0..ny - 1 {
                for i in 0..nx - 1 {
                    let v = CORNERS.map(|(a, b, c)| self.values[self.index(i + a, j + b, k + c)]);
                    let inside = v.iter().filter(|x| **x < 0.0).count();
                    if inside == 0 || inside == 8 {
                        continue;
                    }
                    let corner = |c: usize| {
                        let (a, b, cc) = CORNERS[c];
                        self.point(i + a, j + b, k + cc)
                    };
                    let (mut sum, mut count) = (Vec3::ZERO, 0.0f32);
                    for (a, b) in EDGES {
                        if (v[a] < 0.0) != (v[b] < 0.0) {
                            let t = v[a] / (v[a] - v[b]);
                            sum += corner(a).lerp(corner(b), t);
                            count += 1.0;
                        }
                    }
                    cell_vertex[self.index(i, j, k)] = positions.len() as u32;
                    positions.push(sum / count);
                }
            }
        }
        (cell_vertex, positions)
    }

    /// A quad per crossed grid edge, joining the four cells around it, as two triangles wound
    /// counter-clockwise seen from outside.
    pub(super) fn quads(&self, cell_vertex: &[u32], positions: &[Vec3]) -> Vec<[u32; 3]> {
        let (nx, ny, nz) = self.n;
        let mut triangles = Vec::new();
        let mut quad = |cells: [usize; 4], outward: Vec3| {
            let q = cells.map(|c| cell_vertex[c]);
            if q.contains(&u32::MAX) {
                return;
            }
            let p = q.map(|v| positions[v as usize]);
            // Split along the shorter diagonal.
            let (t0, t1) = if (p[0] - p[2]).length_squared() <= (p[1] - p[3]).length_squared() {
                ([q[0], q[1], q[2]], [q[0], q[2], q[3]])
            } else {
                ([q[0], q[1], q[3]], [q[1], q[2], q[3]])
            };
            for t in [t0, t1] {
                let [a, b, c] = t.map(|v| positions[v as usize]);
                let normal = (b - a).cross(c - a);
                triangles.push(if normal.dot(outward) >= 0.0 {
                    t
                } else {
                    [t[0], t[2], t[1]]
                });
            }
        };
        let index = |i, j, k| self.index(i, j, k);
        let inside = |i, j, k| self.values[self.index(i, j, k)] < 0.0;
        for k in 1..nz - 1 {
            for j in 1..ny - 1 {
                for i in 1..nx - 1 {
                    let here = inside(i, j, k);
                    let sign = |axis: Vec3| if here { axis } else { -axis };
                    // Edges along +x, +y, +z from this grid point.
                    if i + 1 < nx && here != inside(i + 1, j, k) {
                        let cells = [
                            index(i, j - 1, k - 1),
                            index(i, j, k - 1),
                            index(i, j, k),
                            index(i, j - 1, k),
                        ];
                        quad(cells, sign(Vec3::X));
                    }
                    if j + 1 < ny && here != inside(i, j + 1, k) {
                        let cells = [
                            index(i - 1, j, k - 1),
                            index(i, j, k - 1),
                            index(i, j, k),
                            index(i - 1, j, k),
                        ];
                        quad(cells, sign(Vec3::Y));
                    }
                    if k + 1 < nz && here != inside(i, j, k + 1) {
                        let cells = [
                            index(i - 1, j - 1, k),
                            index(i, j - 1, k),
                            index(i, j, k),
                            index(i - 1, j, k),
                        ];
                        quad(cells, sign(Vec3::Z));
                    }
                }
            }
        }
        triangles
    }
}
