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

    [inplace_schedule] (the generator, not proven) builds rounds from the
    exchange's holder choice ([spread_holder]); [validate] (proven in
    [Inplaceproof.v]) executes a schedule symbolically, tracing every target
    place back to the source place whose element it ends up holding, and
    checks bounds, disjointness and traffic.  A schedule the generator gets
    wrong is refused, never run. *)

From Coq Require Import List Arith Lia Bool.
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

(** ** The generator

    Element by element: a want is a target place and the place its element
    is read from now (the holder's source place, or a staging place it was
    saved to).  A round writes every want whose target place no remaining
    want reads; when none qualifies, the remaining wants wait on each other
    in cycles, and the round saves blocked target places into free staging
    places instead (each rank at most [B] at once), pointing their readers
    there.  Runs of consecutive places are then merged into one move. *)

Record want : Type := { wt_to : place; wt_from : place }.

Definition buf_place (w q : nat) : place := {| pl_rank := w; pl_area := Buf; pl_off := q |}.

(** Rank [w]'s wants: its target places, each from the source place of its holder, less those already in place. *)
Definition rank_wants (S T : layout) (h : holder_choice) (w : nat) : list want :=
  match pl_box T w with
  | Some tb =>
      filter (fun wt => negb (place_eqb (wt_to wt) (wt_from wt)))
        (map (fun l =>
                let i := box_global tb l in
                let s := h w i in
                let q := match pl_box S s with Some sb => lin (box_shape sb) (box_local sb i) | None => 0 end in
                {| wt_to := buf_place w (lin (box_shape tb) l); wt_from := buf_place s q |})
             (box_indices (box_shape tb)))
  | None => []
  end.

Definition all_wants (S T : layout) : list want :=
  let h := spread_holder S T in flat_map (rank_wants S T h) (pm_ranks (ly_mesh T)).

Definition read_by (ws : list want) (x : place) : bool := existsb (fun wt => place_eqb (wt_from wt) x) ws.

Definition want_move (wt : want) : move := {| mv_from := wt_from wt; mv_to := wt_to wt; mv_len := 1 |}.

(** The first staging place of rank [w] below [B] that [busy] does not contain. *)
Fixpoint free_stage (fuel : nat) (w k : nat) (busy : list place) : option place :=
  match fuel with
  | 0 => None
  | S f =>
      let x := {| pl_rank := w; pl_area := Stage; pl_off := k |} in
      if existsb (place_eqb x) busy then free_stage f w (S k) busy else Some x
  end.

(** Saves for a round in which every target place is still read: blocked
    places (each once) to free staging places; [busy]: staging places read
    by a want or taken by an earlier save of the round. *)
Fixpoint pick_saves (B : nat) (ws : list want) (busy : list place) (saved : list (place * place))
  : list (place * place) :=
  match ws with
  | [] => rev saved
  | wt :: ws' =>
      let x := wt_to wt in
      if existsb (fun sv => place_eqb (fst sv) x) saved then pick_saves B ws' busy saved
      else match free_stage B (pl_rank x) 0 busy with
           | Some y => pick_saves B ws' (y :: busy) ((x, y) :: saved)
           | None => pick_saves B ws' busy saved
           end
  end.

Definition redirect (saves : list (place * place)) (wt : want) : want :=
  match find (fun sv => place_eqb (fst sv) (wt_from wt)) saves with
  | Some sv => {| wt_to := wt_to wt; wt_from := snd sv |}
  | None => wt
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

Fixpoint rounds_from (fuel B : nat) (ws : list want) (acc : schedule) : option schedule :=
  match ws with
  | [] => Some (rev acc)
  | _ =>
      match fuel with
      | 0 => None
      | S f =>
          let ready := filter (fun wt => negb (read_by ws (wt_to wt))) ws in
          match ready with
          | _ :: _ =>
              rounds_from f B (filter (fun wt => read_by ws (wt_to wt)) ws)
                          (merge_runs (map want_move ready) :: acc)
          | [] =>
              let busy := filter (fun x => match pl_area x with Stage => true | Buf => false end)
                                 (map wt_from ws) in
              match pick_saves B ws busy [] with
              | [] => None
              | saves =>
                  rounds_from f B (map (redirect saves) ws)
                              (merge_runs (map (fun sv => {| mv_from := fst sv; mv_to := snd sv; mv_len := 1 |}) saves)
                               :: acc)
              end
          end
      end
  end.

(** The schedule for staging [B] (at least 1), if the generator finds one;
    every round writes or saves at least one place, so twice the number of
    wants bounds the rounds. *)
Definition inplace_schedule (S T : layout) (B : nat) : option schedule :=
  let ws := all_wants S T in rounds_from (2 * length ws + 1) B ws [].

(** The plan the command runs: the generator's schedule, if [validate] accepts it. *)
Definition inplace_plan (S T : layout) (B : nat) : option schedule :=
  match inplace_schedule S T B with
  | Some sc => if validate S T B sc then Some sc else None
  | None => None
  end.
