(** * The choice of the fastest candidate within a memory budget, for any kind of plan.

    [Cost.choose] (plans with a strategy) and [Costsums.choose_sums]
    (pending-sum plans) differ only in their candidates and in how one is
    costed; both cost each candidate into a [costed] record and choose
    among those records here.  Candidates that allocate more bytes per
    rank than the budget (source, destination and the whole workspace:
    [cs_alloc_bytes]) are set aside; the least predicted time wins, then the least
    traffic of the busiest rank, then the fewest launches, then the
    earliest candidate.  [Chooseproof.v] proves what the choice guarantees
    once, for every kind of plan. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From Redist Require Import Semantics.

(** A validated candidate with its predictions. *)
Record costed (P : Type) : Type := {
  cs_index : nat;              (** its place among the candidates *)
  cs_plan : P;
  cs_steps_ns : list nat;      (** predicted time of each step *)
  cs_time_ns : nat;            (** their sum *)
  cs_live_bytes : nat;         (** the most bytes alive on a rank at once *)
  cs_alloc_bytes : nat;        (** what the caller allocates on a rank: source + destination + workspace *)
  cs_traffic : nat;            (** elements the busiest rank receives *)
  cs_launches : nat            (** steps that communicate (or reduce) *)
}.

Arguments cs_index {P}.
Arguments cs_plan {P}.
Arguments cs_steps_ns {P}.
Arguments cs_time_ns {P}.
Arguments cs_live_bytes {P}.
Arguments cs_alloc_bytes {P}.
Arguments cs_traffic {P}.
Arguments cs_launches {P}.

(** Each candidate costed by [cost] at its place among them, those it
    rejects ([None]) left out. *)
Fixpoint cost_list {P : Type} (cost : nat -> P -> option (costed P)) (i : nat) (ps : list P) : list (costed P) :=
  match ps with
  | [] => []
  | p :: ps' =>
      match cost i p with
      | Some c => c :: cost_list cost (S i) ps'
      | None => cost_list cost (S i) ps'
      end
  end.

Fixpoint lex_lt (a b : list nat) : bool :=
  match a, b with
  | x :: a', y :: b' => (x <? y) || ((x =? y) && lex_lt a' b')
  | _, _ => false
  end.

Definition cheaper {P : Type} (a b : costed P) : bool :=
  lex_lt [cs_time_ns a; cs_traffic a; cs_launches a] [cs_time_ns b; cs_traffic b; cs_launches b].

(** The cheapest, the earliest among equals. *)
Definition least {P : Type} (c : costed P) (cs : list (costed P)) : costed P :=
  fold_left (fun best c' => if cheaper c' best then c' else best) cs c.

(** A budget bounds what the caller allocates, which is at least what is
    alive at once ([Costproof.splan_live_le_alloc]). *)
Definition fits {P : Type} (budget : option nat) (c : costed P) : bool :=
  match budget with None => true | Some b => cs_alloc_bytes c <=? b end.

Inductive choose_error : Type :=
| NoCandidate                     (** the strategy cannot express the problem *)
| BelowMinimum (least_bytes : nat). (** every candidate allocates more bytes per rank than the budget *)

Record choice (P : Type) : Type := {
  ch_best : costed P;
  ch_slower : list (costed P);        (** within the budget, not chosen *)
  ch_over_budget : list (costed P)
}.

Arguments ch_best {P}.
Arguments ch_slower {P}.
Arguments ch_over_budget {P}.

(** The choice among costed candidates [all]. *)
Definition choose_among {P : Type} (budget : option nat) (all : list (costed P)) : res choose_error (choice P) :=
  match filter (fits budget) all with
  | [] =>
      match all with
      | [] => Error NoCandidate
      | c :: cs => Error (BelowMinimum (fold_left Nat.min (map cs_alloc_bytes cs) (cs_alloc_bytes c)))
      end
  | c :: cs =>
      let best := least c cs in
      OK {| ch_best := best;
            ch_slower := filter (fun c' => negb (cs_index c' =? cs_index best)) (c :: cs);
            ch_over_budget := filter (fun c' => negb (fits budget c')) all |}
  end.
