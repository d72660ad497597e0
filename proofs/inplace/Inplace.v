(** * The exchange in place (Part 3 of the model, "In place").

    Each world rank [w] has ONE buffer of [buf_size S T w = max(|src box w|,
    |tgt box w|)] elements and a staging area of [B] elements.  At the start
    the buffer holds the rank's source box, row-major at offset 0
    ([buf_holds S]); at the end it must hold its target box, row-major at
    offset 0 ([buf_holds T]).

    A schedule is data: rounds of moves, each move copying a contiguous run
    of one rank's buffer or staging onto a run of a rank's buffer or staging.
    A round reads every run at the round's start, then all writes land
    ([run_round]); this is what an implementation does when, as [validate]
    checks, no run a round writes meets a run the same round reads or
    another run it writes: every send reads its own place, every receive
    lands in its own place, in any order.  Data moves on the buffer itself,
    so a move that reads a place after an earlier round overwrote it reads
    the wrong element: [Inplaceproof.inplace_sound] rules that out from the
    validation, it does not assume it.

    [inplace_schedule] (the generator, not proven) builds rounds on blocks
    of places from the exchange's messages ([recv_messages]); [validate]
    executes a schedule symbolically, tracing every target place back to
    the source place whose element it ends up holding, and checks bounds,
    disjointness and traffic; [validate_blocks], what the command runs,
    traces one place per block and implies it
    ([Inplaceproof.validate_blocks_validate]).  A schedule the generator
    gets wrong is refused, never run. *)

From Coq Require Import List Arith Lia Bool Orders Mergesort.
Import ListNotations.
From Redist Require Import Model Layout Exchange.

(** ** Places *)

Inductive area : Type := Buf | Stage.

Definition area_eqb (a b : area) : bool :=
  match a, b with Buf, Buf | Stage, Stage => true | _, _ => false end.

Record place : Type := { pl_rank : nat; pl_area : area; pl_off : nat }.

Definition place_eqb (x y : place) : bool :=
  (pl_rank x =? pl_rank y) && area_eqb (pl_area x) (pl_area y) && (pl_off x =? pl_off y).

(** The contents of every rank's buffer and staging. *)
Definition memory (A : Type) := place -> A.

(** ** Row-major local arrays in the buffer *)

(** The offset of local index [l] in a row-major array of [shape]. *)
Fixpoint lin (shape l : list nat) : nat :=
  match shape, l with
  | _ :: shape', i :: l' => i * prod shape' + lin shape' l'
  | _, _ => 0
  end.

(** The local index at offset [q] ([Inplaceproof.lin_delin]: the inverse of [lin] below [prod shape]). *)
Fixpoint delin (shape : list nat) (q : nat) : list nat :=
  match shape with
  | [] => []
  | _ :: shape' => q / prod shape' :: delin shape' (q mod prod shape')
  end.

(** Rank [w]'s box of [L] has this many elements (0 outside the mesh). *)
Definition held_size (L : layout) (w : nat) : nat :=
  match pl_box L w with Some b => box_size b | None => 0 end.

Definition buf_size (S T : layout) (w : nat) : nat := Nat.max (held_size S w) (held_size T w).

(** Every rank of [L]'s mesh holds its box of [g] in its buffer, row-major at offset 0. *)
Definition buf_holds {A} (L : layout) (g : list nat -> A) (st : memory A) : Prop :=
  forall w b, pl_box L w = Some b -> forall l, in_box (box_shape b) l ->
  st {| pl_rank := w; pl_area := Buf; pl_off := lin (box_shape b) l |} = g (box_global b l).

(** ** Schedules and their execution *)

(** The run of [mv_len] places from [mv_from] copied onto the run from [mv_to]. *)
Record move : Type := { mv_from : place; mv_to : place; mv_len : nat }.

Definition round := list move.
Definition schedule := list round.

Definition shift (x : place) (k : nat) : place :=
  {| pl_rank := pl_rank x; pl_area := pl_area x; pl_off := pl_off x + k |}.

(** The run of [n] places from [x] contains [y]. *)
Definition in_run (x : place) (n : nat) (y : place) : bool :=
  (pl_rank x =? pl_rank y) && area_eqb (pl_area x) (pl_area y)
  && (pl_off x <=? pl_off y) && (pl_off y <? pl_off x + n).

(** Where a round reads the element it leaves at [y]: the first move
    writing [y] copies it from its own run; a place no move writes keeps
    its element. *)
Fixpoint round_source (rd : round) (y : place) : place :=
  match rd with
  | [] => y
  | mv :: rd' =>
      if in_run (mv_to mv) (mv_len mv) y then shift (mv_from mv) (pl_off y - pl_off (mv_to mv))
      else round_source rd' y
  end.

(** Every move reads the memory as it was at the round's start. *)
Definition run_round {A} (rd : round) (st : memory A) : memory A := fun y => st (round_source rd y).

Fixpoint run_schedule {A} (sc : schedule) (st : memory A) : memory A :=
  match sc with
  | [] => st
  | rd :: sc' => run_schedule sc' (run_round rd st)
  end.

(** What an implementation does with a round: one move at a time, each
    reading the memory as the moves before it left it
    ([Inplaceproof.round_sequential]: the same as [run_round] on every round
    [validate] accepts). *)
Definition run_move {A} (mv : move) (st : memory A) : memory A :=
  fun y => if in_run (mv_to mv) (mv_len mv) y then st (shift (mv_from mv) (pl_off y - pl_off (mv_to mv))) else st y.

Fixpoint run_moves {A} (rd : round) (st : memory A) : memory A :=
  match rd with
  | [] => st
  | mv :: rd' => run_moves rd' (run_move mv st)
  end.

(** The place at the start whose element a schedule leaves at [y]. *)
Fixpoint trace (sc : schedule) (y : place) : place :=
  match sc with
  | [] => y
  | rd :: sc' => round_source rd (trace sc' y)
  end.

(** ** Traffic, staging, the ranks' own views of a round *)

Definition crosses (mv : move) : bool := negb (pl_rank (mv_from mv) =? pl_rank (mv_to mv)).

(** The moves of a round that rank [a] sends to another rank, and that rank [b] receives from another rank. *)
Definition rank_sends (rd : round) (a : nat) : list move :=
  filter (fun mv => crosses mv && (pl_rank (mv_from mv) =? a)) rd.

Definition rank_recvs (rd : round) (b : nat) : list move :=
  filter (fun mv => crosses mv && (pl_rank (mv_to mv) =? b)) rd.

(** Elements rank [w] receives from other ranks over the whole schedule. *)
Definition received (sc : schedule) (w : nat) : nat :=
  list_sum (map (fun rd => list_sum (map mv_len (rank_recvs rd w))) sc).

(** The places of an area a rank may use: its buffer, or the staging of [B] elements. *)
Definition area_size (S T : layout) (B : nat) (x : place) : nat :=
  match pl_area x with Buf => buf_size S T (pl_rank x) | Stage => B end.

(** ** The validator *)

Definition ranks_of (S T : layout) : list nat := pm_ranks (ly_mesh S) ++ pm_ranks (ly_mesh T).

(** Both runs of a move lie in their areas, on ranks of the two meshes. *)
Definition move_ok (S T : layout) (B : nat) (mv : move) : bool :=
  memb (pl_rank (mv_from mv)) (ranks_of S T) && memb (pl_rank (mv_to mv)) (ranks_of S T)
  && (pl_off (mv_from mv) + mv_len mv <=? area_size S T B (mv_from mv))
  && (pl_off (mv_to mv) + mv_len mv <=? area_size S T B (mv_to mv)).

Definition runs_meet (x : place) (n : nat) (y : place) (k : nat) : bool :=
  (pl_rank x =? pl_rank y) && area_eqb (pl_area x) (pl_area y)
  && (pl_off x <? pl_off y + k) && (pl_off y <? pl_off x + n).

(** No two moves of a round write one place, and no move writes a place the round reads. *)
Fixpoint writes_apart (rd : round) : bool :=
  match rd with
  | [] => true
  | mv :: rd' =>
      forallb (fun mv' => negb (runs_meet (mv_to mv) (mv_len mv) (mv_to mv') (mv_len mv'))) rd'
      && writes_apart rd'
  end.

Definition round_apart (rd : round) : bool :=
  writes_apart rd
  && forallb (fun mv => forallb (fun mv' => negb (runs_meet (mv_from mv) (mv_len mv) (mv_to mv') (mv_len mv'))) rd) rd.

(** The place [x] holds, at the start, the element of global index [i] of the source. *)
Definition source_has (S : layout) (x : place) (i : list nat) : bool :=
  match pl_area x, pl_box S (pl_rank x) with
  | Buf, Some sb => (pl_off x <? box_size sb) && list_eqb (box_global sb (delin (box_shape sb) (pl_off x))) i
  | _, _ => false
  end.

(** Every place of rank [w]'s target box ends up with the source element of its global index. *)
Definition target_ok (S T : layout) (sc : schedule) (w : nat) : bool :=
  match pl_box T w with
  | Some tb =>
      forallb (fun l => source_has S (trace sc {| pl_rank := w; pl_area := Buf; pl_off := lin (box_shape tb) l |})
                                   (box_global tb l))
              (box_indices (box_shape tb))
  | None => true
  end.

Definition validate (S T : layout) (B : nat) (sc : schedule) : bool :=
  forallb (forallb (move_ok S T B)) sc && forallb round_apart sc
  && forallb (target_ok S T sc) (pm_ranks (ly_mesh T))
  && forallb (fun w => received sc w =? recv_lower_bound S T w) (ranks_of S T).

(** ** The validator on blocks

    [validate] traces every element back; on a large array that is too
    slow.  When every run of a schedule starts and ends at multiples of a
    block size [g], a block of [g] consecutive places moves as one, so the
    element at place [y + k] ([k < g]) ends up where the one at [y] does,
    shifted by [k] ([Inplaceproof.trace_shift]); and when a block lies
    within one row of a row-major box, its elements have consecutive last
    coordinates.  [validate_blocks] traces only the first place of each
    block of a target box ([Inplaceproof.validate_blocks_validate]: it
    implies [validate]). *)

(** The length of a row of a row-major array of [shape] (a scalar: one element). *)
Definition row_len (shape : list nat) : nat := last shape 1.

Definition buf_place (w q : nat) : place := {| pl_rank := w; pl_area := Buf; pl_off := q |}.

Definition aligned (g : nat) (mv : move) : bool :=
  (pl_off (mv_from mv) mod g =? 0) && (pl_off (mv_to mv) mod g =? 0) && (mv_len mv mod g =? 0).

(** The run of [n] places from [x] holds, at the start, the source
    elements from global index [i] on, along one row of its box. *)
Definition source_run_has (S : layout) (x : place) (n : nat) (i : list nat) : bool :=
  match pl_area x, pl_box S (pl_rank x) with
  | Buf, Some sb =>
      (pl_off x <? box_size sb) && (pl_off x mod row_len (box_shape sb) + n <=? row_len (box_shape sb))
      && list_eqb (box_global sb (delin (box_shape sb) (pl_off x))) i
  | _, _ => false
  end.

(** A round with, for each rank of [ranks], the moves writing to it: a
    trace looks only at those ([Inplaceproof.trace_indexed_trace]). *)
Definition indexed_round : Type := (list (nat * round) * round)%type.

Definition index_round (ranks : list nat) (rd : round) : indexed_round :=
  (map (fun r => (r, filter (fun mv => pl_rank (mv_to mv) =? r) rd)) ranks, rd).

Definition moves_to (ird : indexed_round) (r : nat) : round :=
  match find (fun p => fst p =? r) (fst ird) with Some p => snd p | None => snd ird end.

Fixpoint trace_indexed (isc : list indexed_round) (y : place) : place :=
  match isc with
  | [] => y
  | ird :: isc' => let y' := trace_indexed isc' y in round_source (moves_to ird (pl_rank y')) y'
  end.

(** Every block of [g] places of rank [w]'s target box lies in one row and
    ends up with the source elements of its global indices ([isc]: the
    schedule, indexed). *)
Definition target_blocks_ok (S T : layout) (g : nat) (isc : list indexed_round) (w : nat) : bool :=
  match pl_box T w with
  | Some tb =>
      let shape := box_shape tb in
      forallb (fun j =>
                 let q := j * g in
                 (box_size tb <=? q)
                 || ((q mod row_len shape + g <=? row_len shape)
                     && source_run_has S (trace_indexed isc (buf_place w q)) g (box_global tb (delin shape q))))
              (seq 0 (Nat.succ (box_size tb / g)))
  | None => true
  end.

Definition validate_blocks (S T : layout) (B g : nat) (sc : schedule) : bool :=
  (0 <? g) && forallb (forallb (fun mv => move_ok S T B mv && aligned g mv)) sc && forallb round_apart sc
  && forallb (target_blocks_ok S T g (map (index_round (ranks_of S T)) sc)) (pm_ranks (ly_mesh T))
  && forallb (fun w => received sc w =? recv_lower_bound S T w) (ranks_of S T).

(** ** The generator (not proven: [validate_blocks] checks what it builds)

    The exchange's messages ([recv_messages]: per target cell, one holder)
    are cut into rows, each a run of consecutive places in both buffers;
    the block size [g] divides every run's offsets and length (and is at
    most [B]), and the generator works on blocks of [g] places as units.  A
    want is a target block and the block its element is read from now (the
    holder's source block, or a staging block it was saved to).  Each round
    writes every want whose target block no remaining want reads, and saves
    the target blocks that wants left for later still read into free
    staging blocks (each rank at most [B / g] at once), pointing their
    readers there; the next round can write them.  Each round sorts the wants once, so a round costs
    [n log n] in the [n] blocks. *)

(** A row of a cell: its first local index (last coordinate 0) in a box of [shape]. *)
Definition row_starts (shape : list nat) : list (list nat) :=
  match shape with
  | [] => [[]]
  | _ => box_indices (removelast shape ++ [1])
  end.

(** The rows of the cell [c] that target rank [w] (box [tb]) receives from [s]. *)
Definition cell_runs (S : layout) (w : nat) (tb : box) (sc : nat * box) : list move :=
  let (s, c) := sc in
  match pl_box S s with
  | Some sb =>
      map (fun l =>
             let i := box_global c l in
             {| mv_from := buf_place s (lin (box_shape sb) (box_local sb i));
                mv_to := buf_place w (lin (box_shape tb) (box_local tb i));
                mv_len := row_len (box_shape c) |})
          (row_starts (box_shape c))
  | None => []
  end.

Definition exchange_runs (S T : layout) : list move :=
  flat_map (fun w => match pl_box T w with
                     | Some tb => flat_map (cell_runs S w tb) (recv_messages S T w)
                     | None => []
                     end)
           (pm_ranks (ly_mesh T)).

(** The largest divisor of [g] at most [d] ([fuel]: [d]). *)
Fixpoint divisor_below (fuel g d : nat) : nat :=
  match fuel with
  | 0 => 1
  | S f => if (d =? 0) || (g mod d =? 0) then Nat.max 1 d else divisor_below f g (d - 1)
  end.

(** The block size: the largest dividing every run's offsets and length, at most [B]. *)
Definition inplace_block (runs : list move) (B : nat) : nat :=
  let g := fold_left (fun g mv => Nat.gcd (Nat.gcd g (mv_len mv)) (Nat.gcd (pl_off (mv_from mv)) (pl_off (mv_to mv))))
                     runs 0 in
  if g =? 0 then 1 else divisor_below (Nat.min g B) g (Nat.min g B).

Record want : Type := { wt_to : place; wt_from : place }.

Definition block_at (g : nat) (x : place) (j : nat) : place :=
  {| pl_rank := pl_rank x; pl_area := pl_area x; pl_off := pl_off x / g + j |}.

(** A run's blocks, less those already in place. *)
Definition run_wants (g : nat) (mv : move) : list want :=
  filter (fun wt => negb (place_eqb (wt_to wt) (wt_from wt)))
         (map (fun j => {| wt_to := block_at g (mv_to mv) j; wt_from := block_at g (mv_from mv) j |})
              (seq 0 (mv_len mv / g))).

(** Places as numbers, in (rank, area, offset) order, for offsets below [K]. *)
Definition place_key (K : nat) (x : place) : nat :=
  (pl_rank x * 2 + match pl_area x with Buf => 0 | Stage => 1 end) * K + pl_off x.

Module KeyedWant <: Orders.TotalLeBool'.
  Definition t : Type := (nat * want)%type.
  Definition leb (x y : t) : bool := fst x <=? fst y.
  Lemma leb_total : forall x y, leb x y = true \/ leb y x = true.
  Proof. intros x y. unfold leb. destruct (Nat.le_ge_cases (fst x) (fst y)); [left | right]; apply Nat.leb_le; lia. Qed.
End KeyedWant.

Module WantSort := Mergesort.Sort KeyedWant.

Definition sort_by (f : want -> nat) (ws : list want) : list (nat * want) :=
  WantSort.sort (map (fun wt => (f wt, wt)) ws).

(** Each want of [kws] (ascending keys) with whether its key is in [ks] (ascending). *)
Fixpoint mark_in (fuel : nat) (ks : list nat) (kws : list (nat * want)) : list (want * bool) :=
  match fuel, kws with
  | 0, _ | _, [] => []
  | S f, (k, wt) :: kws' =>
      match ks with
      | [] => (wt, false) :: mark_in f ks kws'
      | k' :: ks' => if k' <? k then mark_in f ks' kws else (wt, k' =? k) :: mark_in f ks kws'
      end
  end.

(** Up to [count] staging blocks [z >= z0] below [Bb] not in [used] (ascending). *)
Fixpoint free_slots (fuel Bb z : nat) (used : list nat) (count : nat) : list nat :=
  match fuel, count with
  | 0, _ | _, 0 => []
  | S f, S c =>
      if Bb <=? z then []
      else match used with
           | u :: used' =>
               if u <? z then free_slots f Bb z used' count
               else if u =? z then free_slots f Bb (S z) used' count
               else z :: free_slots f Bb (S z) used c
           | [] => z :: free_slots f Bb (S z) used c
           end
  end.

(** Each want of [kws] (ascending keys of where it reads) reading a place
    [saves] (ascending keys) saves, redirected to the staging block. *)
Fixpoint redirect (fuel : nat) (saves : list (nat * place)) (kws : list (nat * want)) : list want :=
  match fuel, kws with
  | 0, _ | _, [] => []
  | S f, (k, wt) :: kws' =>
      match saves with
      | [] => wt :: redirect f saves kws'
      | (k', z) :: saves' =>
          if k' <? k then redirect f saves' kws
          else if k' =? k then {| wt_to := wt_to wt; wt_from := z |} :: redirect f saves kws'
          else wt :: redirect f saves kws'
      end
  end.

(** Merge a move into the next when both runs continue it. *)
Fixpoint merge_runs (rd : round) : round :=
  match rd with
  | mv :: ((mv' :: rd'') as rd') =>
      match merge_runs rd' with
      | nx :: rest =>
          if place_eqb (shift (mv_from mv) (mv_len mv)) (mv_from nx)
             && place_eqb (shift (mv_to mv) (mv_len mv)) (mv_to nx)
          then {| mv_from := mv_from mv; mv_to := mv_to mv; mv_len := mv_len mv + mv_len nx |} :: rest
          else mv :: nx :: rest
      | [] => [mv]
      end
  | _ => rd
  end.

Definition block_move (x y : place) : move := {| mv_from := x; mv_to := y; mv_len := 1 |}.

Definition scale_move (g : nat) (mv : move) : move :=
  {| mv_from := {| pl_rank := pl_rank (mv_from mv); pl_area := pl_area (mv_from mv); pl_off := pl_off (mv_from mv) * g |};
     mv_to := {| pl_rank := pl_rank (mv_to mv); pl_area := pl_area (mv_to mv); pl_off := pl_off (mv_to mv) * g |};
     mv_len := mv_len mv * g |}.

(** The prefix of [xs] (ascending ranks) on rank [r], and the rest; entries of lower ranks are dropped. *)
Fixpoint split_rank {A} (rank_of : A -> nat) (r : nat) (xs : list A) : list A * list A :=
  match xs with
  | [] => ([], [])
  | x :: xs' =>
      if rank_of x <? r then split_rank rank_of r xs'
      else if rank_of x =? r then let (mine, rest) := split_rank rank_of r xs' in (x :: mine, rest)
      else ([], xs)
  end.

(** Per rank of [ranks] (ascending): its blocks to save (ascending) paired
    with its free staging blocks, those [stage_reads] (ascending) does not name. *)
Fixpoint saves_by_rank (Bb : nat) (ranks : list nat) (to_save : list want) (stage_reads : list place)
  : list (place * place) :=
  match ranks with
  | [] => []
  | w :: ranks' =>
      let (mine, to_save') := split_rank (fun wt => pl_rank (wt_to wt)) w to_save in
      let (used, stage_reads') := split_rank pl_rank w stage_reads in
      combine (map wt_to mine)
              (map (fun z => {| pl_rank := w; pl_area := Stage; pl_off := z |})
                   (free_slots (length mine + length used + 1) Bb 0 (map pl_off used) (length mine)))
      ++ saves_by_rank Bb ranks' to_save' stage_reads'
  end.

(** One round on blocks: the moves (target order) and the wants left. *)
Definition block_round (ranks : list nat) (K Bb : nat) (ws : list want) : round * list want :=
  let reads := sort_by (fun wt => place_key K (wt_from wt)) ws in
  let fuel := length ws + length ws + 1 in
  let marked := mark_in fuel (map fst reads) (sort_by (fun wt => place_key K (wt_to wt)) ws) in
  let ready := map fst (filter (fun wb => negb (snd wb)) marked) in
  let blocked := map fst (filter snd marked) in
  (* Blocked only by wants written this round: free next round, no save. *)
  let blocked_by_from := sort_by (fun wt => place_key K (wt_from wt)) blocked in
  let to_save := map fst (filter snd (mark_in fuel (map fst blocked_by_from)
                                                (map (fun wt => (place_key K (wt_to wt), wt)) blocked))) in
  let stage_reads := filter (fun x => match pl_area x with Stage => true | Buf => false end)
                            (map (fun kw => wt_from (snd kw)) reads) in
  let saves := saves_by_rank Bb ranks to_save stage_reads in
  (merge_runs (map (fun wt => block_move (wt_from wt) (wt_to wt)) ready)
   ++ merge_runs (map (fun sv => block_move (fst sv) (snd sv)) saves),
   redirect (length blocked + length saves + 1) (map (fun sv => (place_key K (fst sv), snd sv)) saves)
            blocked_by_from).

(** The generator's limits: at most [inplace_block_limit] blocks, and at
    most [inplace_work_limit] wants left summed over the rounds (what its
    time grows with: a small staging takes many rounds). *)
Definition inplace_block_limit : nat := Nat.pow 2 17.
Definition inplace_work_limit : nat := Nat.pow 2 21.

(** Every round writes or saves a block, so twice the wants bound the rounds;
    [work]: what is left of [inplace_work_limit]. *)
Fixpoint block_rounds (fuel work : nat) (ranks : list nat) (K Bb : nat) (ws : list want) (acc : list round)
  : option (list round) :=
  match ws with
  | [] => Some (rev acc)
  | _ =>
      match fuel with
      | 0 => None
      | S f =>
          if work <? length ws then None
          else match block_round ranks K Bb ws with
               | ([], _) => None
               | (rd, ws') => block_rounds f (work - length ws) ranks K Bb ws' (rd :: acc)
               end
      end
  end.

Fixpoint dedup_sorted (xs : list nat) : list nat :=
  match xs with
  | x :: ((y :: _) as xs') => if x =? y then dedup_sorted xs' else x :: dedup_sorted xs'
  | _ => xs
  end.

(** The schedule for staging [B] (at least 1), if the generator finds one
    within its limits, and the block size. *)
Definition inplace_schedule (S T : layout) (B : nat) : option schedule * nat :=
  let runs := exchange_runs S T in
  let g := inplace_block runs B in
  if inplace_block_limit <? fold_left (fun n mv => n + mv_len mv / g) runs 0 then (None, g)
  else
    let ws := flat_map (run_wants g) runs in
    let K := Nat.succ (fold_left (fun m wt => Nat.max m (Nat.max (pl_off (wt_to wt)) (pl_off (wt_from wt)))) ws (B / g)) in
    let ranks := dedup_sorted (NatSort.sort (ranks_of S T)) in
    (option_map (map (map (scale_move g))) (block_rounds (2 * length ws + 1) inplace_work_limit ranks K (B / g) ws []), g).

(** The plan the command runs: the generator's schedule, if [validate_blocks] accepts it. *)
Definition inplace_plan (S T : layout) (B : nat) : option schedule :=
  match inplace_schedule S T B with
  | (Some sc, g) => if validate_blocks S T B g sc then Some sc else None
  | (None, _) => None
  end.
