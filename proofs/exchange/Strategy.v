(** * Plans with a strategy: Part 1's collectives or the direct exchange.

    [xcheck S T sp] checks a plan for the problem from layout [S] to layout
    [T]: collectives (the existing checker, on an even problem over one mesh
    placed at rank 0, possibly refined into sub-axes) or one exchange step
    (any well-formed layouts of one global shape, any two placed meshes),
    or a hybrid: two such plans in sequence through an intermediate layout.
    It reports the peak local size and what every rank receives.
    [plan_with] is the planner with a strategy argument: [StratCollectives]
    is the existing planner, [StratExchange] the exchange, and [StratAuto]
    the one whose busiest rank receives less, then with fewer launches
    (collectives on a tie); uneven and cross-mesh problems plan by exchange.
    [Strategyproof.v] proves what the reports and the plans mean. *)

From Coq Require Import List Arith Lia Bool FMapAVL OrderedTypeEx.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange.

Inductive strategy : Type := StratCollectives | StratExchange | StratAuto.

Inductive splan : Type :=
| ByCollectives (rf : refinement) (p : plan)   (** over the refined mesh *)
| ByExchange                                    (** one exchange, [spread_holder] *)
| ByThen (mid : layout) (first second : splan). (** [first] to the layout [mid], then [second] from it *)

Fixpoint pairs_eqb (xs ys : list (nat * nat)) : bool :=
  match xs, ys with
  | [], [] => true
  | (a, b) :: xs', (c, d) :: ys' => (a =? c) && (b =? d) && pairs_eqb xs' ys'
  | _, _ => false
  end.

(** Both layouts are Part 1 types on one mesh placed at rank 0. *)
Definition even_problem (S T : layout) : bool :=
  let m := ly_m S in
  pairs_eqb m (ly_m T)
  && list_eqb (pm_ranks (ly_mesh S)) (seq 0 (mesh_size m))
  && list_eqb (pm_ranks (ly_mesh T)) (seq 0 (mesh_size m))
  && mesh_wf m && ty_wf m (ly_ty S) && ty_wf m (ly_ty T)
  && list_eqb (global_shape (ly_ty S)) (global_shape (ly_ty T)).

(** A placed mesh's ranks for looking world ranks up: a contiguous list
    ([{x:4} @ k]) in O(1), any other through a balanced tree from each world
    rank to its first position in the list, in O(log P).  Built once per
    layout, so that a report over every rank of a placed mesh is
    O(P log P) ([Strategyproof.table_index_spec]: the same answers as
    [index_of]). *)
Module RankMap := FMapAVL.Make Nat_as_OT.

(** World rank -> its first position in [ws], positions counted from [k]. *)
Fixpoint rank_positions (ws : list nat) (k : nat) : RankMap.t nat :=
  match ws with
  | [] => RankMap.empty nat
  | w :: ws' => RankMap.add w k (rank_positions ws' (S k))
  end.

Inductive rank_table : Type := Contiguous (first n : nat) | Listed (positions : RankMap.t nat).

Definition rank_table_of (ws : list nat) : rank_table :=
  match ws with
  | [] => Listed (RankMap.empty nat)
  | k :: _ => if list_eqb ws (seq k (length ws)) then Contiguous k (length ws) else Listed (rank_positions ws 0)
  end.

Definition table_index (t : rank_table) (w : nat) : option nat :=
  match t with
  | Contiguous k n => if (k <=? w) && (w <? k + n) then Some (w - k) else None
  | Listed positions => RankMap.find w positions
  end.

(** Each rank's box of a layout ([dev_box] of [device_of_rank],
    [Strategyproof.rank_box_spec]), read off the rank's digits as
    [lower_bound_recv] does: the block sizes and the axes' weights are found
    once per layout, not once per rank through a device's coordinates. *)
Definition rank_box (m : mesh) (t : ty) : nat -> box :=
  if mesh_wf m && forallb (fun x => memb x (mesh_axes m)) (ty_axes t) then
    let ws := rank_weights m in
    let n := mesh_size m in
    let dims := map (fun d => (snd d, block_size m d, map (weight_of ws) (fst d))) t in
    fun k =>
      if k <? n then
        map (fun '(len, b, digits) =>
               let j := radix_of_rank digits k in
               let lo := Nat.min len (j * b) in
               (lo, Nat.min len (S j * b) - lo)) dims
      else dev_box m t (device_of_rank m k)
  else fun k => dev_box m t (device_of_rank m k).

(** [pl_box] through a rank table ([Strategyproof.box_in_spec]); applied
    to its layout and table once, then to each rank. *)
Definition box_in (L : layout) (t : rank_table) : nat -> option box :=
  let box := rank_box (ly_m L) (ly_ty L) in
  fun w => match table_index t w with
           | Some k => Some (box k)
           | None => None
           end.

Definition largest_box_in (L : layout) (t : rank_table) : nat :=
  let boxes := box_in L t in
  fold_left (fun acc w => Nat.max acc (match boxes w with Some b => box_size b | None => 0 end))
            (pm_ranks (ly_mesh L)) 0.

(** The largest box of a layout. *)
Definition largest_box (L : layout) : nat := largest_box_in L (rank_table_of (pm_ranks (ly_mesh L))).

(** [recv_lower_bound] through rank tables of the two meshes. *)
Definition recv_bound_in (S T : layout) (tS tT : rank_table) : nat -> nat :=
  let source := box_in S tS in
  let target := box_in T tT in
  fun r => match target r with
           | Some b => box_size b - match source r with Some sb => overlap_size sb b | None => 0 end
           | None => 0
           end.

(** What each world rank receives in the exchange, and the largest source
    and target boxes, as computed: on an even problem through Part 1's
    closed forms (a rank's digits, one pass over the mesh), otherwise over
    the placed layouts.  [Strategyproof.exchange_recv_spec] and
    [largest_boxes_spec] prove them equal to [recv_lower_bound] and
    [largest_box]; the closed forms keep 65,536-device reports linear. *)
Definition exchange_recv (S T : layout) : nat -> nat :=
  if even_problem S T then
    let m := ly_m S in
    let n := mesh_size m in
    let bound := lower_bound_recv m (ly_ty S) (ly_ty T) in
    fun r => if r <? n then bound r else 0
  else recv_bound_in S T (rank_table_of (pm_ranks (ly_mesh S))) (rank_table_of (pm_ranks (ly_mesh T))).

Definition largest_boxes (S T : layout) : nat * nat :=
  if even_problem S T then (local_size (ly_m S) (ly_ty S), local_size (ly_m S) (ly_ty T))
  else (largest_box S, largest_box T).

Inductive xcheck_error : Type :=
| NotOneEvenMesh                  (** collectives need an even problem on one mesh at rank 0 *)
| BadRefinement                   (** the sub-axes do not refine the mesh *)
| CollectivesRejected (e : check_error)
| BadLayouts                      (** ill-formed layouts, or different global shapes *)
| BadIntermediate.                (** a hybrid's intermediate is not on the target's world ranks *)

Record xreport : Type := {
  xr_peak : nat;                  (** largest local array along the plan *)
  xr_recv : nat -> nat;           (** elements each world rank receives over the plan *)
  xr_collectives : option report  (** the collective checker's report, per step *)
}.

(** A hybrid [ByThen mid a b] is accepted when [a] is, from [S] to [mid],
    and [b], from [mid] to [T], with [mid] on the world ranks of [T] (so
    that the target mesh's ranks are the ranks both parts report on): a
    rank receives what it receives in both parts; the peak is the larger. *)
Fixpoint xcheck (S T : layout) (sp : splan) : res xcheck_error xreport :=
  match sp with
  | ByCollectives rf p =>
      let m := ly_m S in
      if negb (even_problem S T) then Error NotOneEvenMesh
      else if negb (refine_ok m rf) then Error BadRefinement
      else
        match check (refine_mesh rf m) (refine_ty rf (ly_ty S)) (refine_ty rf (ly_ty T)) p with
        | Error e => Error (CollectivesRejected e)
        | OK rep => OK {| xr_peak := rp_peak rep;
                          xr_recv := fun r => list_sum (map (fun s => sr_recv s r) (rp_steps rep));
                          xr_collectives := Some rep |}
        end
  | ByExchange =>
      if layouts_wf S T
      then OK {| xr_peak := Nat.max (fst (largest_boxes S T)) (snd (largest_boxes S T));
                 xr_recv := exchange_recv S T;
                 xr_collectives := None |}
      else Error BadLayouts
  | ByThen mid a b =>
      if negb (list_eqb (pm_ranks (ly_mesh mid)) (pm_ranks (ly_mesh T))) then Error BadIntermediate
      else
        match xcheck S mid a, xcheck mid T b with
        | OK ra, OK rb => OK {| xr_peak := Nat.max (xr_peak ra) (xr_peak rb);
                                xr_recv := fun r => xr_recv ra r + xr_recv rb r;
                                xr_collectives := None |}
        | Error e, _ | _, Error e => Error e
        end
  end.

(** What a plan does to a state. *)
Fixpoint xexec {A} (S T : layout) (sp : splan) (st : state A) : state A :=
  match sp with
  | ByCollectives rf p => exec (refine_mesh rf (ly_m S)) (refine_ty rf (ly_ty S)) p st
  | ByExchange => exchange S T (spread_holder S T) st
  | ByThen mid a b => xexec mid T b (xexec S mid a st)
  end.

(** What rank [r] receives over the execution, counted from the data movement. *)
Fixpoint xreceived (S T : layout) (sp : splan) (r : nat) : nat :=
  match sp with
  | ByCollectives rf p =>
      list_sum (received_trace (refine_mesh rf (ly_m S)) (refine_ty rf (ly_ty S)) p r)
  | ByExchange => exchange_received S T (spread_holder S T) r
  | ByThen mid a b => xreceived S mid a r + xreceived mid T b r
  end.

(** The busiest rank's traffic in the exchange. *)
Definition exchange_busiest (S T : layout) : nat :=
  let recv := exchange_recv S T in
  fold_left (fun acc r => Nat.max acc (recv r)) (pm_ranks (ly_mesh T)) 0.

(** [None]: the strategy cannot express the problem (or the layouts are ill-formed). *)
Definition plan_with (s : strategy) (S T : layout) : option splan :=
  let m := ly_m S in
  let exchange_plan := if layouts_wf S T then Some ByExchange else None in
  if even_problem S T then
    match s with
    | StratCollectives => let '(rf, p) := planner m (ly_ty S) (ly_ty T) in Some (ByCollectives rf p)
    | StratExchange => exchange_plan
    | StratAuto =>
        match planner_choice m (ly_ty S) (ly_ty T) with
        | Some (rf, p, cost) =>
            if cost_lt (exchange_busiest S T, 1) cost then exchange_plan
            else Some (ByCollectives rf p)
        | None => exchange_plan
        end
    end
  else
    match s with
    | StratCollectives => None
    | _ => exchange_plan
    end.
