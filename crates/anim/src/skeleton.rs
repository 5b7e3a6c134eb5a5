//! The joint hierarchy (names, parents, rest transforms) and skins (which joints a mesh uses, with
//! their inverse bind matrices).
//!
//! A `Skeleton` is the animated hierarchy; a `Skin` maps the joints one mesh is bound to (its
//! *palette indices*) to skeleton joints and holds their `joint_from_bind` (inverse bind) matrices.
//! They are apart because glTF lets several skins share one hierarchy (ozz keeps inverse binds with
//! the mesh, as joint remaps, for the same reason).

use glam::{Affine3A, Mat4, Vec3};
use thiserror::Error;

use super::Transform;
use super::pose::SplatAffine;

/// Why a skeleton or skin was refused.
#[derive(Debug, Error, PartialEq)]
pub enum SkeletonError {
    #[error(
        "skeleton has {names} names, {parents} parents and {rest} rest transforms: the counts must match"
    )]
    LengthMismatch {
        names: usize,
        parents: usize,
        rest: usize,
    },
    #[error(
        "joint {joint} has parent {parent}: a parent must come before its child (this also refuses self-parenting and cycles)"
    )]
    ParentNotBeforeChild { joint: usize, parent: usize },
    #[error("joint {joint} has a non-finite rest transform")]
    NonFiniteRest { joint: usize },
    #[error("joint {joint} has a zero-length rest rotation")]
    ZeroRotation { joint: usize },
    #[error("skeleton has {0} joints: at most {max} are supported", max = u16::MAX as usize + 1)]
    TooManyJoints(usize),
}

/// Why a skin was refused.
#[derive(Debug, Error, PartialEq)]
pub enum SkinError {
    #[error(
        "skin has {joints} joints and {inverse_binds} inverse bind matrices: the counts must match"
    )]
    LengthMismatch { joints: usize, inverse_binds: usize },
    #[error(
        "skin joint {palette_index} refers to skeleton joint {joint}, but the skeleton has {joint_count}"
    )]
    JointOutOfRange {
        palette_index: usize,
        joint: usize,
        joint_count: usize,
    },
    #[error("skin joint {palette_index} has a non-finite inverse bind matrix")]
    NonFiniteInverseBind { palette_index: usize },
}

/// A joint hierarchy in parent-before-child order.
///
/// Invariant (checked by `new`): `parents[j] < j` for every joint with a parent, so one forward
/// pass composes the hierarchy.
#[derive(Clone, Debug)]
pub struct Skeleton {
    names: Vec<String>,
    parents: Vec<Option<u16>>,
    rest: Vec<Transform>,
}

impl Skeleton {
    /// Builds a skeleton, refusing mismatched lengths, parents that do not come before their
    /// children, and non-finite or zero-rotation rest transforms.
    pub fn new(
        names: Vec<String>,
        parents: Vec<Option<usize>>,
        rest: Vec<Transform>,
    ) -> Result<Self, SkeletonError> {
        if names.len() != parents.len() || names.len() != rest.len() {
            return Err(SkeletonError::LengthMismatch {
                names: names.len(),
                parents: parents.len(),
                rest: rest.len(),
            });
        }
        if names.len() > u16::MAX as usize + 1 {
            return Err(SkeletonError::TooManyJoints(names.len()));
        }
        for (joint, parent) in parents.iter().enumerate() {
            if let Some(parent) = *parent
                && parent >= joint
            {
                return Err(SkeletonError::ParentNotBeforeChild { joint, parent });
            }
        }
        for (joint, t) in rest.iter().enumerate() {
            if !(t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite()) {
                return Err(SkeletonError::NonFiniteRest { joint });
            }
            if t.rotation.length_squared() <= f32::EPSILON {
                return Err(SkeletonError::ZeroRotation { joint });
            }
        }
        let rest = rest
            .into_iter()
            .map(|t| Transform {
                rotation: t.rotation.normalize(),
                ..t
            })
            .collect();
        let parents = parents.into_iter().map(|p| p.map(|p| p as u16)).collect();
        Ok(Self {
            names,
            parents,
            rest,
        })
    }

    /// The joints `pick` chooses that have no chosen ancestor (one per branch, the topmost).
    pub fn topmost(&self, pick: impl Fn(usize) -> bool) -> Vec<usize> {
        let chosen: Vec<usize> = (0..self.joint_count()).filter(|&j| pick(j)).collect();
        let has_chosen_ancestor = |j: usize| {
            let mut p = self.parent(j);
            while let Some(a) = p {
                if chosen.contains(&a) {
                    return true;
                }
                p = self.parent(a);
            }
            false
        };
        chosen
            .iter()
            .copied()
            .filter(|&j| !has_chosen_ancestor(j))
            .collect()
    }

    pub fn joint_count(&self) -> usize {
        self.names.len()
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The parent of each joint; `None` for a root. Always smaller than the joint's own index.
    pub fn parent(&self, joint: usize) -> Option<usize> {
        self.parents.get(joint).copied().flatten().map(usize::from)
    }

    /// Every joint's parent, in joint order.
    pub fn parents(&self) -> &[Option<u16>] {
        &self.parents
    }

    /// Rest (bind-local) transforms, `parent_from_joint` for each joint.
    pub fn rest(&self) -> &[Transform] {
        &self.rest
    }

    /// The index of the joint with this name, if any.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The bone's direction in `joint`'s own frame: toward its first child at rest (+Y
    /// without one, or when the child sits on the joint).
    pub fn bone_axis(&self, joint: usize) -> Vec3 {
        let child = (0..self.joint_count()).find(|&k| self.parent(k) == Some(joint));
        self.axis_toward(child)
    }

    /// Every joint's `bone_axis`, in one pass (linear in the joints).
    pub fn bone_axes(&self) -> Vec<Vec3> {
        let mut first_child: Vec<Option<usize>> = vec![None; self.joint_count()];
        for k in 0..self.joint_count() {
            if let Some(p) = self.parent(k) {
                first_child[p].get_or_insert(k);
            }
        }
        first_child
            .into_iter()
            .map(|c| self.axis_toward(c))
            .collect()
    }

    fn axis_toward(&self, child: Option<usize>) -> Vec3 {
        child
            .map(|k| self.rest[k].translation)
            .filter(|t| t.length() > 1e-6)
            .map_or(Vec3::Y, Vec3::normalize)
    }
}

/// The joints one skinned mesh is bound to, in palette order (the order `JOINTS_0` refers to once
/// imported), with `joint_from_bind` (inverse bind) matrices.
#[derive(Clone, Debug)]
pub struct Skin {
    joints: Vec<u16>,
    joint_from_bind: Vec<Mat4>,
    /// The same matrices as affine 3x4 when every one is affine (always, for files the strict
    /// importer accepts), each entry in all four lanes (`SplatAffine`): the palette is then
    /// built with cheaper affine products, which read the entries as loads rather than
    /// broadcast them by shuffles.
    joint_from_bind_splat: Option<Vec<SplatAffine>>,
    /// The joint count a model pose needs to hold every joint of this skin.
    needs_joints: usize,
}

impl Skin {
    /// `joints[palette_index]` is a skeleton joint index; `joint_from_bind[palette_index]` its
    /// inverse bind matrix (bind space to joint space).
    pub fn new(
        skeleton: &Skeleton,
        joints: Vec<usize>,
        joint_from_bind: Vec<Mat4>,
    ) -> Result<Self, SkinError> {
        if joints.len() != joint_from_bind.len() {
            return Err(SkinError::LengthMismatch {
                joints: joints.len(),
                inverse_binds: joint_from_bind.len(),
            });
        }
        for (palette_index, &joint) in joints.iter().enumerate() {
            if joint >= skeleton.joint_count() {
                return Err(SkinError::JointOutOfRange {
                    palette_index,
                    joint,
                    joint_count: skeleton.joint_count(),
                });
            }
        }
        if let Some(palette_index) = joint_from_bind.iter().position(|m| !m.is_finite()) {
            return Err(SkinError::NonFiniteInverseBind { palette_index });
        }
        // Skeleton::new caps the joint count at u16::MAX + 1, so every index fits.
        let joints: Vec<u16> = joints.into_iter().map(|j| j as u16).collect();
        let joint_from_bind_splat = joint_from_bind
            .iter()
            .all(|m| m.row(3) == glam::Vec4::W)
            .then(|| {
                (joint_from_bind.iter())
                    .map(|m| SplatAffine::new(&Affine3A::from_mat4(*m)))
                    .collect()
            });
        let needs_joints = joints
            .iter()
            .map(|&j| usize::from(j) + 1)
            .max()
            .unwrap_or(0);
        Ok(Self {
            joints,
            joint_from_bind,
            joint_from_bind_splat,
            needs_joints,
        })
    }

    /// One more than the largest skeleton joint the skin uses (0 for an empty skin).
    pub fn needs_joints(&self) -> usize {
        self.needs_joints
    }

    /// A skin over every joint of `skeleton`, in skeleton order.
    pub fn all_joints(skeleton: &Skeleton, joint_from_bind: Vec<Mat4>) -> Result<Self, SkinError> {
        Self::new(
            skeleton,
            (0..skeleton.joint_count()).collect(),
            joint_from_bind,
        )
    }

    /// Number of palette entries.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// The skeleton joint behind each palette index.
    pub fn joint(&self, palette_index: usize) -> Option<usize> {
        self.joints.get(palette_index).map(|&j| usize::from(j))
    }

    /// The joint of each palette entry, in palette order.
    pub fn joints(&self) -> &[u16] {
        &self.joints
    }

    /// `joint_from_bind` (inverse bind) matrices in palette order.
    pub fn joint_from_bind(&self) -> &[Mat4] {
        &self.joint_from_bind
    }

    pub(crate) fn joint_from_bind_splat(&self) -> Option<&[SplatAffine]> {
        self.joint_from_bind_splat.as_deref()
    }
}
