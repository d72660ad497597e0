(** * Composed cuts (Part 3 of the model).

    A dimension's sharding is a sequence of cuts applied outermost first.  A
    cut names a group of mesh axes (row-major over the names, [P] parts) and
    acts on the extent [E] that the previous cut left on the device (the
    global size for the first cut):

    - [Block xs]: ceil blocks of [b = ceil(E/P)] (Part 2's [dim_block]);
    - [Cyclic xs B]: blocks of [B] elements dealt round-robin over the [P]
      parts (block-cyclic; [B = 1] is cyclic).

    Per device and dimension this file defines the owner test ([dim_owns]),
    the local index ([dim_local]), the local extent ([dim_extent]), the
    global index of a local one ([dim_global]) and the held global indices
    as a sorted list of disjoint intervals ([dim_intervals]); a rank's
    holding is the product over dimensions ([c_has], [c_intervals]).  The
    facts (bijection, exactly one owner, the intervals are the owned
    indices, Part 2 as the one-cut case) are in [Cutsproof.v]. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Layout.

Inductive cut : Type :=
  | Block (xs : list axis)
  | Cyclic (xs : list axis) (B : nat).

Definition cut_axes (k : cut) : list axis := match k with Block xs | Cyclic xs _ => xs end.

(** [P]: the number of parts of a cut. *)
Definition cut_parts (m : mesh) (k : cut) : nat := prod (map (axis_size m) (cut_axes k)).

(** The part of device [c]: its mixed-radix index over the cut's axes. *)
Definition cut_chunk (m : mesh) (k : cut) (c : device) : nat := radix m c (cut_axes k).

(** ** One cut of extent [E] into [P] parts *)

(** The corner of ceil block [j], clipped to [E] as Part 2 clips it. *)
Definition block_lo (P E j : nat) : nat := Nat.min E (j * ceil_div E P).

(** The part that holds element [i]. *)
Definition cut_owner (k : cut) (P E i : nat) : nat :=
  match k with
  | Block _ => i / ceil_div E P
  | Cyclic _ B => (i / B) mod P
  end.

(** The local index of element [i] on part [j]. *)
Definition cut_local (k : cut) (P E j i : nat) : nat :=
  match k with
  | Block _ => i - block_lo P E j
  | Cyclic _ B => i / B / P * B + i mod B
  end.

(** The element at local index [l] of part [j]. *)
Definition cut_global (k : cut) (P E j l : nat) : nat :=
  match k with
  | Block _ => block_lo P E j + l
  | Cyclic _ B => (l / B * P + j) * B + l mod B
  end.

(** The extent left on part [j].  Cyclic: of the [E / B] whole blocks, part
    [j] has one in each of the [E / B / P] whole rounds and one more when
    [j] comes before the last round's end; the part that deals the final
    partial block has its [E mod B] elements too. *)
Definition cut_extent (k : cut) (P E j : nat) : nat :=
  match k with
  | Block _ => Nat.min E (S j * ceil_div E P) - block_lo P E j
  | Cyclic _ B =>
      let whole := E / B in
      B * (whole / P + (if j <? whole mod P then 1 else 0))
      + (if j =? whole mod P then E mod B else 0)
  end.

(** ** A dimension: cuts outermost first over its global size *)

Definition cdim : Type := (list cut * nat)%type.
Definition cty : Type := list cdim.

(** Device [c] holds element [i] of a dimension of extent [E]. *)
Fixpoint dim_owns (m : mesh) (ks : list cut) (E : nat) (c : device) (i : nat) : bool :=
  match ks with
  | [] => i <? E
  | k :: ks' =>
      let P := cut_parts m k in
      let j := cut_chunk m k c in
      (i <? E) && (cut_owner k P E i =? j)
      && dim_owns m ks' (cut_extent k P E j) c (cut_local k P E j i)
  end.

Fixpoint dim_local (m : mesh) (ks : list cut) (E : nat) (c : device) (i : nat) : nat :=
  match ks with
  | [] => i
  | k :: ks' =>
      let P := cut_parts m k in
      let j := cut_chunk m k c in
      dim_local m ks' (cut_extent k P E j) c (cut_local k P E j i)
  end.

Fixpoint dim_extent (m : mesh) (ks : list cut) (E : nat) (c : device) : nat :=
  match ks with
  | [] => E
  | k :: ks' => dim_extent m ks' (cut_extent k (cut_parts m k) E (cut_chunk m k c)) c
  end.

Fixpoint dim_global (m : mesh) (ks : list cut) (E : nat) (c : device) (l : nat) : nat :=
  match ks with
  | [] => l
  | k :: ks' =>
      let P := cut_parts m k in
      let j := cut_chunk m k c in
      cut_global k P E j (dim_global m ks' (cut_extent k P E j) c l)
  end.

(** ** Held indices as intervals (start, length) *)

(** The global intervals of local interval [[lo, lo+n)] of a cyclic part:
    [g], the part's global index, is contiguous within each local block of
    [B], so the interval is cut at every multiple of [B] ([fuel]: [n]). *)
Fixpoint cyclic_runs (g : nat -> nat) (B fuel lo n : nat) : list (nat * nat) :=
  match fuel with
  | 0 => []
  | S f =>
      if n =? 0 then []
      else
        let len := Nat.min n (B - lo mod B) in
        (g lo, len) :: cyclic_runs g B f (lo + len) (n - len)
  end.

(** The global intervals of a local interval of part [j]. *)
Definition cut_image (k : cut) (P E j : nat) (iv : nat * nat) : list (nat * nat) :=
  let g := cut_global k P E j in
  match k with
  | Block _ => [(g (fst iv), snd iv)]
  | Cyclic _ B => cyclic_runs g B (snd iv) (fst iv) (snd iv)
  end.

(** The elements of device [c] in a dimension, as increasing disjoint
    intervals: the innermost cut leaves [[0, extent)], and each cut, from
    the innermost out, maps its part's local intervals to its input's. *)
Fixpoint dim_intervals (m : mesh) (ks : list cut) (E : nat) (c : device) : list (nat * nat) :=
  match ks with
  | [] => if E =? 0 then [] else [(0, E)]
  | k :: ks' =>
      let P := cut_parts m k in
      let j := cut_chunk m k c in
      flat_map (cut_image k P E j) (dim_intervals m ks' (cut_extent k P E j) c)
  end.

Definition intervals_elems (ivs : list (nat * nat)) : list nat :=
  flat_map (fun iv => seq (fst iv) (snd iv)) ivs.

(** ** A device's holding: the product over dimensions *)

Fixpoint c_has (m : mesh) (t : cty) (c : device) (i : list nat) : bool :=
  match t, i with
  | [], [] => true
  | d :: t', x :: i' => dim_owns m (fst d) (snd d) c x && c_has m t' c i'
  | _, _ => false
  end.

Fixpoint c_local (m : mesh) (t : cty) (c : device) (i : list nat) : list nat :=
  match t, i with
  | d :: t', x :: i' => dim_local m (fst d) (snd d) c x :: c_local m t' c i'
  | _, _ => []
  end.

Fixpoint c_global (m : mesh) (t : cty) (c : device) (l : list nat) : list nat :=
  match t, l with
  | d :: t', y :: l' => dim_global m (fst d) (snd d) c y :: c_global m t' c l'
  | _, _ => []
  end.

Definition c_shape (m : mesh) (t : cty) (c : device) : list nat :=
  map (fun d => dim_extent m (fst d) (snd d) c) t.

Definition c_intervals (m : mesh) (t : cty) (c : device) : list (list (nat * nat)) :=
  map (fun d => dim_intervals m (fst d) (snd d) c) t.

(** ** Well-formedness *)

Definition cut_wf (m : mesh) (k : cut) : bool :=
  forallb (fun x => memb x (mesh_axes m)) (cut_axes k)
  && match k with Block _ => true | Cyclic _ B => 1 <=? B end.

Definition cty_axes (t : cty) : list axis := flat_map (fun d => flat_map cut_axes (fst d)) t.

(** Mesh axes only, blocks of at least 1, an axis in at most one cut of one dimension. *)
Definition cty_wf (m : mesh) (t : cty) : bool :=
  forallb (fun d => forallb (cut_wf m) (fst d)) t && nodupb (cty_axes t).

(** ** Layouts of composed cuts on placed meshes *)

Record clayout : Type := { cl_mesh : pmesh; cl_ty : cty }.

Definition cl_m (L : clayout) : mesh := pm_mesh (cl_mesh L).

Definition clayout_wf (L : clayout) : bool := pmesh_wf (cl_mesh L) && cty_wf (cl_m L) (cl_ty L).

(** The device of world rank [w]; [None]: [w] is outside the mesh. *)
Definition cl_device (L : clayout) (w : nat) : option device :=
  option_map (device_of_rank (cl_m L)) (index_of w (pm_ranks (cl_mesh L))).

(** ** Part 2's types are the one-cut ceil-block case *)

Definition cdim_of_dimty (d : dimty) : cdim := ([Block (fst d)], snd d).

Definition cty_of_ty (t : ty) : cty := map cdim_of_dimty t.

Definition clayout_of_layout (L : layout) : clayout :=
  {| cl_mesh := ly_mesh L; cl_ty := cty_of_ty (ly_ty L) |}.

(** ** The examples of Part 3, on [{x:2, y:2}] ([x] is axis 0, [y] axis 1) *)

Definition mesh_x2y2 : mesh := [(0, 2); (1, 2)].

(** The intervals of each rank, in rank order. *)
Definition intervals_by_rank (m : mesh) (t : cty) : list (list (list (nat * nat))) :=
  map (fun r => c_intervals m t (device_of_rank m r)) (seq 0 (mesh_size m)).

(** [{x}{y}5]: [x]-pieces [[0,3)], [[3,5)], then [(x0,y0) [0,2)],
    [(x0,y1) [2,3)], [(x1,y0) [3,4)], [(x1,y1) [4,5)]. *)
Example nested_x_y_5 :
  intervals_by_rank mesh_x2y2 [([Block [0]; Block [1]], 5)]
  = [[[(0, 2)]]; [[(2, 1)]]; [[(3, 1)]]; [[(4, 1)]]].
Proof. reflexivity. Qed.

(** [{x}%2 5]: [x0] holds [{0,1,4}], [x1] holds [{2,3}], each over both [y]. *)
Example cyclic_x_2_5 :
  intervals_by_rank mesh_x2y2 [([Cyclic [0] 2], 5)]
  = [[[(0, 2); (4, 1)]]; [[(0, 2); (4, 1)]]; [[(2, 2)]]; [[(2, 2)]]].
Proof. reflexivity. Qed.

(** [{y}{x}5], the other shard order: [y] cuts first. *)
Example nested_y_x_5 :
  intervals_by_rank mesh_x2y2 [([Block [1]; Block [0]], 5)]
  = [[[(0, 2)]]; [[(3, 1)]]; [[(2, 1)]]; [[(4, 1)]]].
Proof. reflexivity. Qed.

(** [{x}%2{y} 5]: blocks of 2 dealt over [x], then each local extent in ceil blocks over [y]. *)
Example cyclic_then_block_5 :
  intervals_by_rank mesh_x2y2 [([Cyclic [0] 2; Block [1]], 5)]
  = [[[(0, 2)]]; [[(4, 1)]]; [[(2, 1)]]; [[(3, 1)]]].
Proof. reflexivity. Qed.
