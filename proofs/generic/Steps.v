(** * Sequences of steps, whatever a step moves.

    The traffic lower bounds take any sequence of steps, each a data
    movement and the local shapes after it: an index map for the plain
    bound ([Lowerbound.moves]), a map of sums with pending sums
    ([Sumlowerbound.sum_moves]).  That every step reads only what exists,
    and the shapes after the last, are the same for both; they are stated
    here once, over the movement's type [X] and the shapes' type [Sh]. *)

From Coq Require Import List.
Import ListNotations.

Section Steps.
Context {X Sh : Type}.

(** [valid sh sh' x]: step [x], from shapes [sh] to shapes [sh'], reads only what exists. *)
Variable valid : Sh -> Sh -> X -> Prop.

Fixpoint steps_valid (sh : Sh) (ms : list (X * Sh)) : Prop :=
  match ms with
  | [] => True
  | (x, sh') :: ms' => valid sh sh' x /\ steps_valid sh' ms'
  end.

End Steps.

Fixpoint steps_final {X Sh : Type} (sh : Sh) (ms : list (X * Sh)) : Sh :=
  match ms with
  | [] => sh
  | (_, sh') :: ms' => steps_final sh' ms'
  end.
