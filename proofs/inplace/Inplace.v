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

    [inplace_schedule] (the generator, not proven) builds rounds on runs
    of any lengths cut from the exchange's messages ([recv_messages]);
    [validate] executes a schedule symbolically, tracing every target place
    back to the source place whose element it ends up holding, and checks
    bounds, disjointness and traffic; [validate_runs], what the command
    runs, traces whole runs and implies it
    ([Inplaceproof.validate_runs_validate]), as does [validate_blocks]
    on schedules of blocks ([Inplaceproof.validate_blocks_validate]).
    A schedule the generator
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

(** ** Lists of any length

    The generator and the validator on runs handle a run per row of the
    exchange's messages (hundreds of thousands on a large uneven problem),
    so they walk lists with accumulators, never deeper than a round. *)

Definition map_tr {A B} (f : A -> B) (l : list A) : list B := rev' (fold_left (fun acc x => f x :: acc) l []).

Definition filter_tr {A} (f : A -> bool) (l : list A) : list A :=
  rev' (fold_left (fun acc x => if f x then x :: acc else acc) l []).

Definition count {A} (l : list A) : nat := fold_left (fun n _ => S n) l 0.

(** A bottom-up merge sort by a key ([Inplaceproof.In_sort_key]: the same elements). *)
Section KeySort.
Context {A : Type} (key : A -> nat).

Fixpoint merge_acc (l1 : list A) : list A -> list A -> list A :=
  fix merge_aux (l2 acc : list A) : list A :=
    match l1, l2 with
    | [], _ => rev_append acc l2
    | _, [] => rev_append acc l1
    | a :: l1', b :: l2' => if key a <=? key b then merge_acc l1' l2 (a :: acc) else merge_aux l2' (b :: acc)
    end.

Fixpoint merge_pairs (ls acc : list (list A)) : list (list A) :=
  match ls with
  | a :: b :: rest => merge_pairs rest (merge_acc a b [] :: acc)
  | [a] => a :: acc
  | [] => acc
  end.

(** Each pass halves the sorted lists; 64 passes sort any list a machine holds. *)
Fixpoint sort_passes (fuel : nat) (ls : list (list A)) : list A :=
  match ls with
  | [] => []
  | [a] => a
  | _ => match fuel with
         | 0 => fold_left (fun acc a => rev_append a acc) ls []
         | S f => sort_passes f (merge_pairs ls [])
         end
  end.

Definition sort_key (l : list A) : list A := sort_passes 64 (fold_left (fun acc x => [x] :: acc) l []).
End KeySort.

(** Places as numbers, in (rank, area, offset) order; for offsets below
    [K] distinct places have distinct numbers. *)
Definition place_key (K : nat) (x : place) : nat :=
  (pl_rank x * 2 + match pl_area x with Buf => 0 | Stage => 1 end) * K + pl_off x.

(** ** The validator on runs

    A schedule whose runs have no common block (uneven boxes, runs cut
    anywhere) is checked run by run.  [validate_runs] implies [validate]
    ([Inplaceproof.validate_runs_validate]):
    - no run a round writes meets another it writes or one it reads: the
      round's runs as intervals of [place_key], sorted, each write starting
      past every run before it and each read past every write before it
      ([round_apart_sorted]);
    - every target box, cut into runs along its rows, traced back round by
      round as whole runs: a round moves a run [y, y + n) as one while no
      run the round writes starts or ends inside it ([uniform_len]); the
      moves that may write it are found in a tree of the round's writes by
      their key intervals ([round_forest]), so a trace costs the log of a
      round's moves, not their number. *)

Record span : Type := { sp_key : nat; sp_len : nat; sp_write : bool; sp_id : nat }.

(** Each move of a round, numbered, as the run it writes and the run it reads. *)
Definition round_spans (K : nat) (rd : round) : list span :=
  flat_map (fun im : nat * move =>
              let (i, mv) := im in
              [{| sp_key := place_key K (mv_to mv); sp_len := mv_len mv; sp_write := true; sp_id := i |};
               {| sp_key := place_key K (mv_from mv); sp_len := mv_len mv; sp_write := false; sp_id := i |}])
           (combine (seq 0 (length rd)) rd).

(** [hw]: where the writes so far end, [ha]: where every run so far ends. *)
Fixpoint spans_apart (hw ha : nat) (l : list span) : bool :=
  match l with
  | [] => true
  | s :: l' =>
      (if sp_write s then ha <=? sp_key s else hw <=? sp_key s)
      && spans_apart (if sp_write s then Nat.max hw (sp_key s + sp_len s) else hw) (Nat.max ha (sp_key s + sp_len s)) l'
  end.

Definition round_apart_sorted (K : nat) (rd : round) : bool := spans_apart 0 0 (sort_key sp_key (round_spans K rd)).

(** The moves of a round in a tree, each node with the least key and the
    greatest end of the runs written below it. *)
Inductive mtree : Type :=
| MLeaf (mv : move)
| MNode (lo hi : nat) (l r : mtree).

Fixpoint mt_moves (t : mtree) : list move :=
  match t with
  | MLeaf mv => [mv]
  | MNode _ _ l r => mt_moves l ++ mt_moves r
  end.

Definition mt_lo (K : nat) (t : mtree) : nat :=
  match t with MLeaf mv => place_key K (mv_to mv) | MNode lo _ _ _ => lo end.

Definition mt_hi (K : nat) (t : mtree) : nat :=
  match t with MLeaf mv => place_key K (mv_to mv) + mv_len mv | MNode _ hi _ _ => hi end.

Definition mt_node (K : nat) (l r : mtree) : mtree :=
  MNode (Nat.min (mt_lo K l) (mt_lo K r)) (Nat.max (mt_hi K l) (mt_hi K r)) l r.

Fixpoint mt_pairs (K : nat) (ts acc : list mtree) : list mtree :=
  match ts with
  | a :: b :: rest => mt_pairs K rest (mt_node K a b :: acc)
  | [a] => rev' (a :: acc)
  | [] => rev' acc
  end.

Fixpoint mt_forest (fuel K : nat) (ts : list mtree) : list mtree :=
  match fuel, ts with
  | 0, _ | _, [] | _, [_] => ts
  | S f, _ => mt_forest f K (mt_pairs K ts [])
  end.

Definition round_forest (K : nat) (rd : round) : list mtree :=
  mt_forest 64 K (map_tr MLeaf (sort_key (fun mv => place_key K (mv_to mv)) rd)).

(** The moves below [t] whose written run may meet the keys [s, e), onto [acc]. *)
Fixpoint mt_meeting (K s e : nat) (t : mtree) (acc : list move) : list move :=
  match t with
  | MLeaf mv => if (place_key K (mv_to mv) <? e) && (s <? place_key K (mv_to mv) + mv_len mv) then mv :: acc else acc
  | MNode lo hi l r => if (lo <? e) && (s <? hi) then mt_meeting K s e l (mt_meeting K s e r acc) else acc
  end.

Definition forest_meeting (K s e : nat) (f : list mtree) : list move := fold_left (fun acc t => mt_meeting K s e t acc) f [].

(** How far from [y] the run [x, x + len) neither starts nor ends ([n] if never). *)
Definition run_gap (x : place) (len : nat) (y : place) (n : nat) : nat :=
  if in_run x len y then pl_off x + len - pl_off y
  else if (pl_rank x =? pl_rank y) && area_eqb (pl_area x) (pl_area y) && (pl_off y <? pl_off x) then pl_off x - pl_off y
  else n.

(** The places from [y], at most [n], that the moves [ms] treat alike. *)
Fixpoint uniform_len (ms : round) (y : place) (n : nat) : nat :=
  match ms with
  | [] => n
  | mv :: ms' => Nat.min (run_gap (mv_to mv) (mv_len mv) y n) (uniform_len ms' y n)
  end.

(** Where the run of [n] places from [y] came from, through the rounds
    whose trees are [fs], and how much of it moved as one. *)
Fixpoint trace_run (K : nat) (fs : list (list mtree)) (y : place) (n : nat) : place * nat :=
  match fs with
  | [] => (y, n)
  | f :: fs' =>
      let (y', n') := trace_run K fs' y n in
      let ms := forest_meeting K (place_key K y') (place_key K y' + n') f in
      (round_source ms y', uniform_len ms y' n')
  end.

(** From place [q] on, rank [w]'s target box [tb] is covered by runs, each
    within a row, each holding at the end the source elements of its
    global indices. *)
Fixpoint runs_cover (S : layout) (K : nat) (fs : list (list mtree)) (w : nat) (tb : box) (fuel q : nat) : bool :=
  match fuel with
  | 0 => false
  | Datatypes.S f =>
      (box_size tb <=? q)
      || (let shape := box_shape tb in
          let rl := row_len shape in
          let (x, n) := trace_run K fs (buf_place w q) (rl - q mod rl) in
          (0 <? n) && (q mod rl + n <=? rl) && source_run_has S x n (box_global tb (delin shape q))
          && runs_cover S K fs w tb f (q + n))
  end.

Definition target_runs_ok (S T : layout) (K : nat) (fs : list (list mtree)) (w : nat) : bool :=
  match pl_box T w with
  | Some tb => runs_cover S K fs w tb (Datatypes.S (box_size tb)) 0
  | None => true
  end.

Definition validate_runs (S T : layout) (B : nat) (sc : schedule) : bool :=
  let K := Datatypes.S (fold_left (fun m w => Nat.max m (buf_size S T w)) (ranks_of S T) B) in
  forallb (forallb (move_ok S T B)) sc && forallb (round_apart_sorted K) sc
  && forallb (target_runs_ok S T K (map (round_forest K) sc)) (pm_ranks (ly_mesh T))
  && forallb (fun w => received sc w =? recv_lower_bound S T w) (ranks_of S T).

(** ** The generator (not proven: [validate_runs] checks what it builds)

    The exchange's messages ([recv_messages]: per target cell, one holder)
    are cut into rows, each a run of consecutive places in both buffers
    ([exchange_runs]).  The generator works on pieces: a run of target
    places and the run of places it reads now (the holder's source, or
    staging it was saved to), as intervals of [place_key]; pieces are cut
    wherever a round needs, so runs of any lengths move whole, never in a
    common block.  Each round, over the pieces left (ascending targets):
    - every part of a piece whose target no piece reads is written;
    - of the other parts, those some piece left for later still reads are
      saved, as far as the staging allows, into staging no piece reads
      (each rank at most [B] places), and their readers read the staging
      from then on: the next round writes them (a cycle of the local
      permutation goes through the staging once);
    - parts read only by pieces written this round wait a round, unsaved.
    Adjacent parts moving alike merge into one run.  A round costs a few
    sorts of the pieces left. *)

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

Record piece : Type := { pc_to : nat; pc_from : nat; pc_len : nat }.

(** The place of a key ([place_key K] below [K]). *)
Definition key_place (K k : nat) : place :=
  {| pl_rank := k / (2 * K); pl_area := if (k / K) mod 2 =? 0 then Buf else Stage; pl_off := k mod K |}.

Definition piece_move (K : nat) (p : piece) : move :=
  {| mv_from := key_place K (pc_from p); mv_to := key_place K (pc_to p); mv_len := pc_len p |}.

Definition sub_piece (p : piece) (d n : nat) : piece := {| pc_to := pc_to p + d; pc_from := pc_from p + d; pc_len := n |}.

(** Pieces (in order) merged where one continues the previous in both runs. *)
Fixpoint merge_adjacent (cur : piece) (ps acc : list piece) : list piece :=
  match ps with
  | [] => rev' (cur :: acc)
  | p :: ps' =>
      if (pc_to cur + pc_len cur =? pc_to p) && (pc_from cur + pc_len cur =? pc_from p)
      then merge_adjacent {| pc_to := pc_to cur; pc_from := pc_from cur; pc_len := pc_len cur + pc_len p |} ps' acc
      else merge_adjacent p ps' (cur :: acc)
  end.

Definition coalesce (ps : list piece) : list piece :=
  match ps with [] => [] | p :: ps' => merge_adjacent p ps' [] end.

(** Intervals [a, b) (ascending by [a]) as their union: disjoint, ascending. *)
Fixpoint union_sorted (cur : nat * nat) (l acc : list (nat * nat)) : list (nat * nat) :=
  match l with
  | [] => rev' (cur :: acc)
  | (a, b) :: l' =>
      if a <=? snd cur then union_sorted (fst cur, Nat.max (snd cur) b) l' acc
      else union_sorted (a, b) l' (cur :: acc)
  end.

(** Where pieces (ascending by where they read) read, as disjoint intervals
    [(a, b, 0)]: the payload of [cut_run]'s intervals is unused here. *)
Definition reads_of (ps : list piece) : list (nat * nat * nat) :=
  match map_tr (fun p => (pc_from p, pc_from p + pc_len p)) ps with
  | [] => []
  | c :: l => map_tr (fun ab => (fst ab, snd ab, 0)) (union_sorted c l [])
  end.

Fixpoint drop_ended (s : nat) (R : list (nat * nat * nat)) : list (nat * nat * nat) :=
  match R with
  | (a, b, d) :: R' => if b <=? s then drop_ended s R' else R
  | [] => []
  end.

(** The parts of [s, e) outside the intervals [(a, b, d)] of [R] (disjoint,
    ascending; [None]) and inside them ([Some], where [d] maps the part's
    start: [a] goes to [d]). *)
Fixpoint cut_run (fuel s e : nat) (R : list (nat * nat * nat)) (acc : list (nat * nat * option nat))
  : list (nat * nat * option nat) :=
  match fuel with
  | 0 => rev' acc
  | S f =>
      if e <=? s then rev' acc
      else match R with
           | [] => rev' ((s, e, None) :: acc)
           | (a, b, d) :: R' =>
               if b <=? s then cut_run f s e R' acc
               else if s <? a then cut_run f (Nat.min a e) e R ((s, Nat.min a e, None) :: acc)
               else cut_run f (Nat.min b e) e R' ((s, Nat.min b e, Some (d + (s - a))) :: acc)
           end
  end.

(** Every piece of [ps] (ascending in [coord]) cut at the intervals of [R] along [coord]. *)
Fixpoint cut_pieces (coord : piece -> nat) (ps : list piece) (R : list (nat * nat * nat))
  (acc : list (piece * option nat)) : list (piece * option nat) :=
  match ps with
  | [] => rev' acc
  | p :: ps' =>
      let s := coord p in
      let R1 := drop_ended s R in
      let parts := cut_run (2 * pc_len p + 2) s (s + pc_len p) R1 [] in
      cut_pieces coord ps' R1
        (fold_left (fun acc' (part : nat * nat * option nat) =>
                      let '(a, b, d) := part in (sub_piece p (a - s) (b - a), d) :: acc') parts acc)
  end.

Definition outside (parts : list (piece * option nat)) : list piece :=
  map_tr fst (filter_tr (fun pd => match snd pd with None => true | Some _ => false end) parts).

Definition inside (parts : list (piece * option nat)) : list piece :=
  map_tr fst (filter_tr (fun pd => match snd pd with None => false | Some _ => true end) parts).

(** Saves of the runs [need] (ascending) into the [free] runs, as far as they go: (staging, saved, length) as pieces. *)
Fixpoint fill (fuel : nat) (need free : list (nat * nat)) (acc : list piece) : list piece :=
  match fuel, need, free with
  | S f, (t, te) :: need', (z, ze) :: free' =>
      let m := Nat.min (te - t) (ze - z) in
      fill f (if t + m <? te then (t + m, te) :: need' else need')
           (if z + m <? ze then (z + m, ze) :: free' else free')
           ({| pc_to := z; pc_from := t; pc_len := m |} :: acc)
  | _, _, _ => acc
  end.

Fixpoint split_while {A} (p : A -> bool) (l acc : list A) : list A * list A :=
  match l with
  | x :: l' => if p x then split_while p l' (x :: acc) else (rev' acc, l)
  | [] => (rev' acc, [])
  end.

(** The saves of [need] (ascending runs of target places, grouped by rank)
    into each rank's staging of [B] places less what [reads] (ascending)
    reads there; reversed. *)
Fixpoint plan_saves (fuel K B : nat) (reads : list (nat * nat * nat)) (need : list (nat * nat)) (acc : list piece)
  : list piece :=
  match fuel, need with
  | S f, (t, _) :: _ =>
      let r := t / (2 * K) in
      let (mine, rest) := split_while (fun x => fst x / (2 * K) =? r) need [] in
      let base := (2 * r + 1) * K in
      let reads' := drop_ended base reads in
      let free := map_tr (fun part => let '(a, b, _) := part in (a, b))
                         (filter_tr (fun part => match snd part with None => true | Some _ => false end)
                                    (cut_run (2 * B + 2) base (base + B) reads' [])) in
      plan_saves f K B reads' rest (fill (count mine + count free) mine free acc)
  | _, _ => acc
  end.

(** The parts of the intervals [A] (disjoint, ascending) outside those of [R] (the same). *)
Fixpoint subtract (A R : list (nat * nat * nat)) (acc : list (nat * nat * nat)) : list (nat * nat * nat) :=
  match A with
  | [] => rev' acc
  | (a, b, _) :: A' =>
      let R1 := drop_ended a R in
      subtract A' R1
        (fold_left (fun acc' (part : nat * nat * option nat) =>
                      match part with (x, y, None) => (x, y, 0) :: acc' | _ => acc' end)
                   (cut_run (2 * (b - a) + 2) a b R1 []) acc)
  end.

(** Intervals [a, b) with a payload [d] in a tree, each node with its least start and greatest end. *)
Inductive itree : Type :=
| ILeaf (a b d : nat)
| INode (lo hi : nat) (l r : itree).

Definition it_lo (t : itree) : nat := match t with ILeaf a _ _ => a | INode lo _ _ _ => lo end.
Definition it_hi (t : itree) : nat := match t with ILeaf _ b _ => b | INode _ hi _ _ => hi end.
Definition it_node (l r : itree) : itree := INode (Nat.min (it_lo l) (it_lo r)) (Nat.max (it_hi l) (it_hi r)) l r.

Fixpoint it_pairs (ts acc : list itree) : list itree :=
  match ts with
  | a :: b :: rest => it_pairs rest (it_node a b :: acc)
  | [a] => rev' (a :: acc)
  | [] => rev' acc
  end.

Fixpoint it_forest (fuel : nat) (ts : list itree) : list itree :=
  match fuel, ts with
  | 0, _ | _, [] | _, [_] => ts
  | S f, _ => it_forest f (it_pairs ts [])
  end.

(** The intervals below [t] meeting [s, e), in order, onto [acc]. *)
Fixpoint it_meeting (s e : nat) (t : itree) (acc : list (nat * nat * nat)) : list (nat * nat * nat) :=
  match t with
  | ILeaf a b d => if (a <? e) && (s <? b) then (a, b, d) :: acc else acc
  | INode lo hi l r => if (lo <? e) && (s <? hi) then it_meeting s e l (it_meeting s e r acc) else acc
  end.

(** One round over the pieces left (ascending targets, disjoint): its moves
    and the pieces left after it (the same order).  A target part read by a
    piece written this round and by one left is saved a round later. *)
Definition gen_round (K B : nat) (ps : list piece) : round * list piece :=
  let reads := reads_of (sort_key pc_from ps) in
  let parts := cut_pieces pc_to ps reads [] in
  let ready := coalesce (outside parts) in
  let blocked := inside parts in
  let read_later := subtract reads (reads_of (sort_key pc_from ready)) [] in
  let need := map_tr (fun p => (pc_to p, pc_to p + pc_len p)) (inside (cut_pieces pc_to blocked read_later [])) in
  let saves := rev' (plan_saves (count need) K B reads need []) in
  let save_tree := it_forest 64 (map_tr (fun sv => ILeaf (pc_from sv) (pc_from sv + pc_len sv) (pc_to sv)) saves) in
  let redirect (acc : list piece) (p : piece) : list piece :=
    let s := pc_from p in
    let hits := fold_right (fun t acc' => it_meeting s (s + pc_len p) t acc') [] save_tree in
    match hits with
    | [] => p :: acc
    | _ => fold_left (fun acc' (part : nat * nat * option nat) =>
                        let '(a, b, d) := part in
                        let q := sub_piece p (a - s) (b - a) in
                        match d with Some z => {| pc_to := pc_to q; pc_from := z; pc_len := pc_len q |} :: acc' | None => q :: acc' end)
                     (cut_run (2 * pc_len p + 2) s (s + pc_len p) hits []) acc
    end in
  (map_tr (piece_move K) ready ++ map_tr (piece_move K) (coalesce saves), coalesce (rev' (fold_left redirect blocked []))).

(** The generator's limit: the pieces left summed over the rounds (what its
    time grows with: a small staging takes many rounds). *)
Definition inplace_work_limit : nat := Nat.pow 2 23.

Fixpoint gen_rounds (fuel work K B : nat) (ps : list piece) (acc : list round) : option schedule :=
  match ps with
  | [] => Some (rev' acc)
  | _ =>
      match fuel with
      | 0 => None
      | S f =>
          let n := count ps in
          if work <? n then None
          else match gen_round K B ps with
               | ([], _) => None
               | (rd, ps') => gen_rounds f (work - n) K B ps' (rd :: acc)
               end
      end
  end.

(** The schedule for staging [B] (at least 1), if the generator finds one within its limit. *)
Definition inplace_schedule (S T : layout) (B : nat) : option schedule :=
  let K := Datatypes.S (fold_left (fun m w => Nat.max m (buf_size S T w)) (ranks_of S T) B) in
  let pieces := map_tr (fun mv => {| pc_to := place_key K (mv_to mv); pc_from := place_key K (mv_from mv); pc_len := mv_len mv |})
                       (exchange_runs S T) in
  let moving := filter_tr (fun p => negb (pc_to p =? pc_from p) && (0 <? pc_len p)) pieces in
  gen_rounds (Datatypes.S inplace_work_limit) inplace_work_limit K B (coalesce (sort_key pc_to moving)) [].

(** The plan the command runs: the generator's schedule, if [validate_runs] accepts it. *)
Definition inplace_plan (S T : layout) (B : nat) : option schedule :=
  match inplace_schedule S T B with
  | Some sc => if validate_runs S T B sc then Some sc else None
  | None => None
  end.
