(** * The reducing exchange between layouts of composed cuts, lowered to region messages.

    The source is pending over the axes [ps] of its mesh (any commutative
    monoid: the array is the combination over each group, [Holdsum]); the
    target is pending over [pt] with a fill, or plain ([pt = []]).  What a
    runtime executes, per world rank [r]:
    - [reduce_sends S ps T pt fl r]: for each peer [p], boxes of [r]'s
      source local array (per dimension (offset, extent));
    - [reduce_recvs S ps T pt fl r]: for each peer [p], boxes of [r]'s
      target local array, listed in the order of the source mesh's rank
      list.  An entry whose peer is [r] itself is its local contribution
      (a copy from its own source array, no message);
    - the fill: every position of [r]'s target array starts at the
      identity, then, for each entry in that order, the positions of its
      boxes are combined (op) with the matching elements of the peer's
      box.  A rank the fill does not designate has no entry and keeps the
      identity.
    The [k]-th box [r] sends to [p] has the extents of the [k]-th box [p]
    receives from [r] (one global cell of [Lowercuts.region_cells]).

    Who contributes ([rsends_to]): each element of a receiving target rank
    [r] gets the values of every member of one source group holding it,
    once each: [r]'s own group when [r]'s source holds the element (same
    parts of every cut), else the group of the first replica that holds it
    ([is_lead]), whose pending coordinates are 0.  So every position
    combines the group members in ascending mesh rank, [r]'s own value at
    its place: the fixed order of [Holdsum.cuts_group].

    [region_reduce_run] executes the messages alone; [region_reduce_received]
    counts, from them, the contributions a rank receives from other ranks. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From Redist Require Import Model Layout Cuts Sums Holding Lowercuts Holdsum.

(** The mesh rank of [c] with its coordinates on [ps] set to 0: the first
    member of its group. *)
Definition group_first_rank (m : mesh) (ps : list axis) (c : device) : nat :=
  rank m (fun a => if memb a ps then 0 else c a).

(** Source world rank [s] contributes to target world rank [r] the elements
    [s] holds and [r]'s target needs. *)
Definition rsends_to (S : clayout) (ps : list axis) (T : clayout) (pt : list axis) (fl : fill)
    (s r : nat) : bool :=
  fill_receives fl (cuts_designated T pt) r
  && match cl_device S s with
     | None => false
     | Some cs =>
         let in_lead_group := is_lead S (group_first_rank (cl_m S) ps cs) in
         match cl_device S r with
         | Some cr =>
             if same_parts (cl_m S) (cl_ty S) cr cs then same_group (cl_m S) ps cr cs else in_lead_group
         | None => in_lead_group
         end
     end.

Definition reduce_sends (S : clayout) (ps : list axis) (T : clayout) (pt : list axis) (fl : fill)
    (r : nat) : list (nat * list lbox) :=
  flat_map (fun p => if rsends_to S ps T pt fl r p then message p (map (src_local S r) (region_cells S T r p)) else [])
           (pm_ranks (cl_mesh T)).

Definition reduce_recvs (S : clayout) (ps : list axis) (T : clayout) (pt : list axis) (fl : fill)
    (r : nat) : list (nat * list lbox) :=
  flat_map (fun p => if rsends_to S ps T pt fl p r then message p (map (tgt_local T r) (region_cells S T p r)) else [])
           (pm_ranks (cl_mesh S)).

(** ** Executing reducing region messages *)

(** The (rank, local index) pairs combined into position [l] of [r], in
    the order of its receives: for each entry with a box containing [l],
    the sender's matching position. *)
Definition reduce_contributions (sends : nat -> list (nat * list lbox)) (r : nat)
    (recvs : list (nat * list lbox)) (l : list nat) : list (nat * list nat) :=
  flat_map (fun e => match find_box (snd e) l with
                     | Some k => [(fst e, shift (nth k (snd e) []) (nth k (peer_boxes (sends (fst e)) r) []) l)]
                     | None => []
                     end) recvs.

Definition region_reduce_run (M : cmonoid) (S : clayout) (ps : list axis) (T : clayout) (pt : list axis)
    (fl : fill) (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (fst src) (snd src))
                         (reduce_contributions (reduce_sends S ps T pt fl) r (reduce_recvs S ps T pt fl r) l)).

(** Contributions rank [r] receives from other ranks, over the positions of its target array. *)
Definition region_reduce_received (S : clayout) (ps : list axis) (T : clayout) (pt : list axis) (fl : fill)
    (r : nat) : nat :=
  length (filter (fun src => negb (fst src =? r))
                 (flat_map (reduce_contributions (reduce_sends S ps T pt fl) r (reduce_recvs S ps T pt fl r))
                           (positions (hd_shape (clayout_holding T)) r))).
