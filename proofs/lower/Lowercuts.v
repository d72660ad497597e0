(** * The exchange between layouts of composed cuts, lowered to region messages.

    What a runtime executes, per world rank [r]:
    - [region_sends S T r]: for each peer [p], boxes of [r]'s source local
      array (row-major local coordinates, per dimension (offset, extent));
    - [region_recvs S T r]: for each peer [p], boxes of [r]'s target local array;
    - [region_copies S T r]: source-local box to target-local box, same extents.
    The [k]-th box [r] sends to [p] has the extents of, and carries the
    elements of, the [k]-th box [p] receives from [r]: both are the same
    global cell ([region_cells]) read in the two local arrays.

    Cells are products over dimensions of the intersections of the sender's
    source intervals with the receiver's target intervals.  A global interval
    inside one held interval is a run of consecutive local indices, for block
    and cyclic cuts alike ([Lowercutsproof.v]), so each cell is a box in both
    local arrays.

    Holder choice: a rank keeps what its source holds ([region_copies]); the
    rest comes from the first rank of the source mesh in each group of
    replicas ([is_lead]), the ranks whose devices are in the same part of
    every cut and so hold the same elements.

    [region_run] executes the messages: target position [l] of [r] takes its
    value from the box, among [r]'s copies and then its receives, that
    contains [l], and from the peer's matching box in that peer's sends. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From Redist Require Import Model Layout Cuts.

(** Per dimension (offset, extent). *)
Definition lbox : Type := list (nat * nat).

(** ** Global cells *)

Definition iv_meet (a b : nat * nat) : nat * nat :=
  let lo := Nat.max (fst a) (fst b) in
  (lo, Nat.min (fst a + snd a) (fst b + snd b) - lo).

(** The non-empty intersections of two interval lists. *)
Definition ivs_meet (xs ys : list (nat * nat)) : list (nat * nat) :=
  filter (fun iv => negb (snd iv =? 0)) (flat_map (fun a => map (iv_meet a) ys) xs).

(** The boxes of a product of per-dimension interval lists, row-major. *)
Fixpoint product_boxes (ds : list (list (nat * nat))) : list lbox :=
  match ds with
  | [] => [[]]
  | d :: ds' => flat_map (fun iv => map (cons iv) (product_boxes ds')) d
  end.

Definition meet_dims (xs ys : list (list (nat * nat))) : list (list (nat * nat)) :=
  map (fun p => ivs_meet (fst p) (snd p)) (combine xs ys).

(** The global cells that device [cs] of [S] holds and device [ct] of [T] needs. *)
Definition device_cells (S T : clayout) (cs ct : device) : list lbox :=
  product_boxes (meet_dims (c_intervals (cl_m S) (cl_ty S) cs) (c_intervals (cl_m T) (cl_ty T) ct)).

(** A global box read in a device's local array (its corner's local index per dimension). *)
Fixpoint localize (m : mesh) (t : cty) (c : device) (b : lbox) : lbox :=
  match t, b with
  | d :: t', iv :: b' => (dim_local m (fst d) (snd d) c (fst iv), snd iv) :: localize m t' c b'
  | _, _ => []
  end.

(** ** Who sends to whom *)

(** Two devices in the same part of every cut: they hold the same elements. *)
Definition same_parts (m : mesh) (t : cty) (c c' : device) : bool :=
  forallb (fun d => forallb (fun k => cut_chunk m k c =? cut_chunk m k c') (fst d)) t.

(** Mesh rank [k] of [S] is the first of its replicas. *)
Definition is_lead (S : clayout) (k : nat) : bool :=
  forallb (fun k' => negb (same_parts (cl_m S) (cl_ty S) (device_of_rank (cl_m S) k')
                                                        (device_of_rank (cl_m S) k)))
          (seq 0 k).

(** World rank [s] sends its source elements that [r]'s target needs: [s]
    leads its replicas and [r] is neither [s] nor one of them. *)
Definition sends_to (S : clayout) (s r : nat) : bool :=
  match index_of s (pm_ranks (cl_mesh S)) with
  | None => false
  | Some k =>
      negb (s =? r) && is_lead S k
      && match cl_device S r with
         | Some c => negb (same_parts (cl_m S) (cl_ty S) c (device_of_rank (cl_m S) k))
         | None => true
         end
  end.

(** The global cells world rank [s]'s source holds and world rank [r]'s target needs. *)
Definition region_cells (S T : clayout) (s r : nat) : list lbox :=
  match cl_device S s, cl_device T r with
  | Some cs, Some ct => device_cells S T cs ct
  | _, _ => []
  end.

Definition src_local (S : clayout) (w : nat) (b : lbox) : lbox :=
  match cl_device S w with Some c => localize (cl_m S) (cl_ty S) c b | None => b end.

Definition tgt_local (T : clayout) (w : nat) (b : lbox) : lbox :=
  match cl_device T w with Some c => localize (cl_m T) (cl_ty T) c b | None => b end.

(** A peer's message, omitted when it has no box. *)
Definition message (p : nat) (bs : list lbox) : list (nat * list lbox) :=
  match bs with [] => [] | _ => [(p, bs)] end.

Definition region_sends (S T : clayout) (r : nat) : list (nat * list lbox) :=
  flat_map (fun p => if sends_to S r p then message p (map (src_local S r) (region_cells S T r p)) else [])
           (pm_ranks (cl_mesh T)).

Definition region_recvs (S T : clayout) (r : nat) : list (nat * list lbox) :=
  flat_map (fun p => if sends_to S p r then message p (map (tgt_local T r) (region_cells S T p r)) else [])
           (pm_ranks (cl_mesh S)).

Definition region_copies (S T : clayout) (r : nat) : list (lbox * lbox) :=
  map (fun b => (src_local S r b, tgt_local T r b)) (region_cells S T r r).

(** ** Executing region messages *)

Fixpoint in_lbox (b : lbox) (l : list nat) : bool :=
  match b, l with
  | [], [] => true
  | (o, n) :: b', x :: l' => (o <=? x) && (x <? o + n) && in_lbox b' l'
  | _, _ => false
  end.

(** Position [l] of box [from] moved to box [to]. *)
Fixpoint shift (from to : lbox) (l : list nat) : list nat :=
  match from, to, l with
  | (o, _) :: f', (o', _) :: t', x :: l' => (o' + (x - o)) :: shift f' t' l'
  | _, _, _ => []
  end.

Fixpoint find_box (bs : list lbox) (l : list nat) : option nat :=
  match bs with
  | [] => None
  | b :: bs' => if in_lbox b l then Some 0 else option_map S (find_box bs' l)
  end.

Fixpoint peer_boxes (msgs : list (nat * list lbox)) (p : nat) : list lbox :=
  match msgs with
  | [] => []
  | (q, bs) :: msgs' => if q =? p then bs else peer_boxes msgs' p
  end.

(** The first receive box of [r] holding [l], and the sender's matching box. *)
Fixpoint recv_source (sends : nat -> list (nat * list lbox)) (r : nat)
    (recvs : list (nat * list lbox)) (l : list nat) : option (nat * list nat) :=
  match recvs with
  | [] => None
  | (p, bs) :: recvs' =>
      match find_box bs l with
      | Some k => Some (p, shift (nth k bs []) (nth k (peer_boxes (sends p) r) []) l)
      | None => recv_source sends r recvs' l
      end
  end.

(** Where target position [l] of [r] takes its value from, by the messages alone. *)
Definition region_wire (sends : nat -> list (nat * list lbox)) (recvs : nat -> list (nat * list lbox))
    (copies : nat -> list (lbox * lbox)) : wire_map :=
  fun r l =>
    match find (fun bb => in_lbox (snd bb) l) (copies r) with
    | Some (sb, tb) => (r, shift tb sb l)
    | None => match recv_source sends r (recvs r) l with Some x => x | None => (r, l) end
    end.

Definition region_run {A} (S T : clayout) (st : state A) : state A :=
  run_wire (region_wire (region_sends S T) (region_recvs S T) (region_copies S T)) st.

(** ** Figures *)

Definition lbox_size (b : lbox) : nat := fold_right (fun iv n => snd iv * n) 1 b.

Definition boxes_size (bs : list lbox) : nat := fold_right (fun b n => lbox_size b + n) 0 bs.

(** Elements rank [r] receives. *)
Definition region_recv_count (S T : clayout) (r : nat) : nat :=
  fold_right (fun m n => boxes_size (snd m) + n) 0 (region_recvs S T r).
