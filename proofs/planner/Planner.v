(** * The memory-efficient planner.

    [planner m src tgt] returns a mesh refinement and a plan on the refined
    mesh.  It builds a few candidate plans in normal form (slices, then
    all-to-alls and permutes, then gathers), one per candidate refinement
    (none first, then coarser, then full prime refinements), keeps those
    that the checker accepts, whose local sizes never exceed
    [max(|src|, |tgt|)] and that are in normal form, and returns the one
    whose busiest rank receives the fewest elements (then the fewest
    launches; then the earliest, i.e. the least refined).  If no candidate
    qualifies it falls back to the paper's easy plan on the unrefined mesh
    (gather everything, then slice), which the checker always accepts;
    [Plannerfinal.planner_always_normal] proves that the fallback is never
    taken, as the full prime refinement's candidate always qualifies. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker.

(** ** Plan shapes: normal form *)

Definition is_slice (k : collective) : bool :=
  match k with DynSlice _ _ => true | _ => false end.

Definition is_flat (k : collective) : bool :=
  match k with AllToAll _ _ | AllPermute _ => true | _ => false end.

Definition is_gather (k : collective) : bool :=
  match k with AllGather _ => true | _ => false end.

Fixpoint take_while {A} (f : A -> bool) (l : list A) : list A * list A :=
  match l with
  | [] => ([], [])
  | x :: l' => if f x then let '(a, b) := take_while f l' in (x :: a, b) else ([], l)
  end.

(** The slices, flat steps and gathers of a plan, and whether nothing else is left. *)
Definition nf_split (p : plan) : plan * plan * plan * plan :=
  let '(sl, r1) := take_while is_slice p in
  let '(fl, r2) := take_while is_flat r1 in
  let '(ga, r3) := take_while is_gather r2 in
  (sl, fl, ga, r3).

Definition normal_form (p : plan) : bool :=
  match nf_split p with (_, _, _, []) => true | _ => false end.

(** ** Running types without the reports *)

Fixpoint run_type (m : mesh) (t : ty) (p : plan) : option ty :=
  match p with
  | [] => Some t
  | k :: p' =>
      match step_type m t k with
      | OK t' => run_type m t' p'
      | Error _ => None
      end
  end.

(** ** Prime factors and refinements *)

(** The least divisor [>= d] of [n], or [n] when none is at most its square root. *)
Fixpoint least_factor_from (fuel d n : nat) : nat :=
  match fuel with
  | 0 => n
  | S f => if n <? d * d then n else if n mod d =? 0 then d else least_factor_from f (S d) n
  end.

Definition least_factor (n : nat) : nat := least_factor_from n 2 n.

(** Prime factors, ascending.  Each factor at least halves [n], so [n] is ample fuel. *)
Fixpoint prime_factors_fuel (fuel n : nat) : list nat :=
  match fuel with
  | 0 => []
  | S f => if n <=? 1 then [] else
            let p := least_factor n in p :: prime_factors_fuel f (n / p)
  end.

Definition prime_factors (n : nat) : list nat := prime_factors_fuel n n.

(** Split axis [x] into sub-axes of sizes [fs] (major to minor), as a chain of
    splits: [x] into [fresh] and [fresh+1], then [fresh+1] further. *)
Fixpoint chain_splits (x : axis) (fs : list nat) (fresh : nat) : refinement :=
  match fs with
  | [] | [_] => []
  | f :: fs' =>
      {| sp_axis := x; sp_hi := fresh; sp_lo := S fresh; sp_q := f; sp_r := prod fs' |}
        :: chain_splits (S fresh) fs' (S (S fresh))
  end.

(** Refine every axis of [m], its size's prime factors grouped by [group]. *)
Fixpoint refine_all (group : list nat -> list nat) (m : mesh) (fresh : nat) : refinement :=
  match m with
  | [] => []
  | (x, s) :: m' =>
      let fs := group (prime_factors s) in
      chain_splits x fs fresh ++ refine_all group m' (fresh + 2 * length fs)
  end.

Definition fresh_axis (m : mesh) : axis := S (fold_left Nat.max (mesh_axes m) 0).

(** Groupings of prime factors, coarsest first: split off the least prime
    (as minor or as major sub-axis), then all primes ascending or descending. *)
Definition lo_least (fs : list nat) : list nat :=
  match fs with [] | [_] => fs | p :: fs' => [prod fs'; p] end.
Definition hi_least (fs : list nat) : list nat :=
  match fs with [] | [_] => fs | p :: fs' => [p; prod fs'] end.

Definition split_eqb (a b : split) : bool :=
  list_eqb [sp_axis a; sp_hi a; sp_lo a; sp_q a; sp_r a] [sp_axis b; sp_hi b; sp_lo b; sp_q b; sp_r b].

Fixpoint refinement_eqb (a b : refinement) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => split_eqb x y && refinement_eqb a' b'
  | _, _ => false
  end.

(** Keep the first copy of each refinement, so each candidate is assessed once. *)
Fixpoint dedup_refinements (rs : list refinement) : list refinement :=
  match rs with
  | [] => []
  | r :: rs' =>
      r :: filter (fun r' => negb (refinement_eqb r r')) (dedup_refinements rs')
  end.

Definition candidate_refinements (m : mesh) : list refinement :=
  let f := fresh_axis m in
  dedup_refinements
    [[]; refine_all lo_least m f; refine_all hi_least m f;
     refine_all (@rev nat) m f; refine_all (fun fs => fs) m f].

(** ** The normal-form construction on one (refined) mesh *)

Definition ext (m : mesh) (t : ty) (d : nat) : nat := extent m (dim_of t d).

(** What [n] has that [n'] lacks. *)
Definition surplus (n n' : nat) : nat := n / Nat.gcd n n'.

Definition slice_type (t : ty) (d : nat) (x : axis) : ty :=
  set_dim t d (fst (dim_of t d) ++ [x], snd (dim_of t d)).

(** Slice [t] by the pairs [(d, x)] of [prefs] in order, each only if [x]
    is a free axis of size above 1 that divides what dimension [d] has in
    excess of [other] and what the local size has in excess of [goal]. *)
Fixpoint greedy_slices (m : mesh) (other : ty) (goal : nat) (t : ty)
         (prefs : list (nat * axis)) : list (nat * axis) :=
  match prefs with
  | [] => []
  | (d, x) :: ps =>
      let sz := axis_size m x in
      if (1 <? sz) && (d <? length t) && memb x (mesh_axes m) && negb (memb x (ty_axes t))
         && (ext m t d mod sz =? 0)
         && (surplus (ext m t d) (ext m other d) mod sz =? 0)
         && ((local_size m t / goal) mod sz =? 0)
      then (d, x) :: greedy_slices m other goal (slice_type t d x) ps
      else greedy_slices m other goal t ps
  end.

(** Axes of [other]'s dimension [d] first (so that the slices agree with the
    other side where they can), then every mesh axis for every dimension. *)
Definition slice_prefs (m : mesh) (t other : ty) : list (nat * axis) :=
  flat_map (fun d => map (fun x => (d, x)) (fst (dim_of other d))) (seq 0 (length t))
  ++ flat_map (fun x => map (fun d => (d, x)) (seq 0 (length t))) (mesh_axes m).

Definition slices_of (ps : list (nat * axis)) : plan := map (fun '(d, x) => DynSlice d x) ps.

Definition apply_slices (t : ty) (ps : list (nat * axis)) : ty :=
  fold_left (fun t '(d, x) => slice_type t d x) ps t.

(** Gathers that undo slices [ps], last slice first. *)
Definition gathers_of (ps : list (nat * axis)) : plan :=
  rev (map (fun '(d, _) => AllGather d) ps).

(** [a] moved to the end of dimension [s]: same local shape. *)
Definition move_last (t : ty) (s : nat) (a : axis) : ty :=
  let '(xs, n) := dim_of t s in
  set_dim t s (filter (fun y => negb (Nat.eqb y a)) xs ++ [a], n).

(** An all-to-all that brings [t]'s local shape closer to [goal]'s: the
    axis [a] of [s] (where [t] lacks extent) moves to [u] (where [t] has
    extent in excess).  Last axes first, as they need no permute. *)
Definition move_ok (m : mesh) (t goal : ty) (s u : nat) (a : axis) : bool :=
  let sz := axis_size m a in
  negb (Nat.eqb s u) && (1 <? sz)
  && (surplus (ext m goal s) (ext m t s) mod sz =? 0)
  && (surplus (ext m t u) (ext m goal u) mod sz =? 0).

(** [moves] with the largest axes first (insertion sort, stable). *)
Fixpoint insert_big (m : mesh) (v : nat * nat * axis * bool) (l : list (nat * nat * axis * bool))
  : list (nat * nat * axis * bool) :=
  match l with
  | [] => [v]
  | w :: l' =>
      let '(_, _, a, _) := v in
      let '(_, _, b, _) := w in
      if axis_size m a <? axis_size m b then w :: insert_big m v l' else v :: l
  end.

Definition big_first (m : mesh) (l : list (nat * nat * axis * bool)) : list (nat * nat * axis * bool) :=
  fold_right (insert_big m) [] l.

(** With [big], larger axes are moved first even at the price of a permute:
    moving a small last axis first can leave a large axis that no longer
    fits, on meshes that are not fully refined. *)
Definition find_move (big : bool) (m : mesh) (t goal : ty) : option (nat * nat * axis * bool) :=
  let dims := seq 0 (length t) in
  let tries := flat_map (fun s => map (fun u => (s, u)) dims) dims in
  let lasts := flat_map (fun '(s, u) =>
                  match fst (dim_of t s) with
                  | [] => []
                  | xs => [(s, u, last_axis xs, false)]
                  end) tries in
  let others := flat_map (fun '(s, u) => map (fun a => (s, u, a, true)) (fst (dim_of t s))) tries in
  find (fun '(s, u, a, _) => move_ok m t goal s u a)
       (if big then big_first m (lasts ++ others) else lasts ++ others).

Fixpoint flat_steps (big : bool) (fuel : nat) (m : mesh) (t goal : ty) : plan :=
  if list_eqb (local_shape m t) (local_shape m goal)
  then (if ty_eqb t goal then [] else [AllPermute goal])
  else match fuel with
       | 0 => []
       | S f =>
           match find_move big m t goal with
           | None => []
           | Some (s, u, a, perm) =>
               let t1 := if perm then move_last t s a else t in
               match step_type m t1 (AllToAll s u) with
               | OK t2 =>
                   (if perm then [AllPermute t1] else []) ++ AllToAll s u :: flat_steps big f m t2 goal
               | Error _ => []
               end
           end
       end.

(** The candidate on mesh [m] for middle local size [L]: slice [src] towards
    [L], do the same to [tgt] (to be undone by gathers), connect the two. *)
Definition build (big : bool) (m : mesh) (src tgt : ty) (L : nat) : plan :=
  let s1 := greedy_slices m tgt L src (slice_prefs m src tgt) in
  let s2 := greedy_slices m src L tgt (slice_prefs m tgt src) in
  let mid1 := apply_slices src s1 in
  (* each all-to-all multiplies the product of the per-dimension gcds of
     the current and goal shapes by a prime, and that product divides the
     local size, so the local size bounds the number of moves *)
  slices_of s1 ++ flat_steps big (local_size m mid1) m mid1 (apply_slices tgt s2)
  ++ gathers_of s2.

(** ** Validation and choice *)

Definition trace_peak_ok (m : mesh) (t : ty) (p : plan) (bound : nat) : bool :=
  forallb (fun u => local_size m u <=? bound) (trace m t p).

Definition is_permute (k : collective) : bool :=
  match k with AllPermute _ => true | _ => false end.

(** Busiest-rank traffic of an accepted plan.  Only permutes receive
    different amounts on different ranks: the other steps are summed once
    ([fixed_traffic], a lower bound), the permutes per rank; a single
    permute receives all or nothing, so its busiest rank is the first one
    that receives anything. *)
Definition fixed_traffic (rep : report) : nat :=
  fold_left Nat.add
    (map (fun s => sr_recv s 0) (filter (fun s => negb (is_permute (sr_collective s))) (rp_steps rep)))
    0.

(** The scans over ranks [r .. r + n - 1] are tail-recursive and build no
    list of ranks, so that meshes of millions of devices do not overflow
    the stack. *)
Fixpoint first_received (s : step_report) (r n : nat) : nat :=
  match n with
  | 0 => 0
  | S n' => if 0 <? sr_recv s r then sr_recv s r else first_received s (S r) n'
  end.

Fixpoint max_from (f : nat -> nat) (r n acc : nat) : nat :=
  match n with
  | 0 => acc
  | S n' => max_from f (S r) n' (Nat.max acc (f r))
  end.

(** [max_from], stopping once the running maximum reaches [cap], a bound on
    [f] ([Plannerproof.max_upto_max_from]). *)
Fixpoint max_upto (cap : nat) (f : nat -> nat) (r n acc : nat) : nat :=
  match n with
  | 0 => acc
  | S n' => if cap <=? acc then acc else max_upto cap f (S r) n' (Nat.max acc (f r))
  end.

(** A permute receives nothing or its whole local array, so the sum of
    the permutes' local sizes bounds a rank's permute traffic; the busiest
    rank usually reaches it within the first few ranks. *)
Definition permute_traffic (m : mesh) (rep : report) : nat :=
  match filter (fun s => is_permute (sr_collective s)) (rp_steps rep) with
  | [] => 0
  | [s] => first_received s 0 (mesh_size m)
  | perms => max_upto (fold_left Nat.add (map sr_local_size perms) 0)
                      (fun r => fold_left Nat.add (map (fun s => sr_recv s r) perms) 0)
                      0 (mesh_size m) 0
  end.

Definition plan_traffic (m : mesh) (rep : report) : nat := fixed_traffic rep + permute_traffic m rep.

(** A qualifying candidate: a lower bound on its traffic, its launches, and
    what its exact traffic is computed from. *)
Definition assess (m : mesh) (src tgt : ty) (rf : refinement) (p : plan)
  : option (nat * nat * mesh * report) :=
  if negb (refine_ok m rf) then None else
  let m' := refine_mesh rf m in
  let src' := refine_ty rf src in
  let tgt' := refine_ty rf tgt in
  match check m' src' tgt' p with
  | Error _ => None
  | OK rep =>
      if trace_peak_ok m' src' p (Nat.max (local_size m src) (local_size m tgt))
         && normal_form p
      then Some (fixed_traffic rep, length p, m', rep)
      else None
  end.

Definition cost_lt (a b : nat * nat) : bool :=
  (fst a <? fst b) || ((fst a =? fst b) && (snd a <? snd b)).

(** The cheapest qualifying candidate, by (traffic, launches), the earliest
    among equals.  The per-rank traffic of permutes is only computed for a
    candidate whose lower bound could still win. *)
Fixpoint best (m : mesh) (src tgt : ty) (cands : list (refinement * plan))
  : option (refinement * plan * (nat * nat)) :=
  match cands with
  | [] => None
  | (rf, p) :: cs =>
      let rest := best m src tgt cs in
      match assess m src tgt rf p with
      | None => rest
      | Some (lb, len, m', rep) =>
          match rest with
          | Some (_, c') as r =>
              if cost_lt c' (lb, len) then r
              else let c := (lb + permute_traffic m' rep, len) in
                   if cost_lt c' c then r else Some (rf, p, c)
          | None => Some (rf, p, (lb + permute_traffic m' rep, len))
          end
      end
  end.

Definition collective_eqb (a b : collective) : bool :=
  match a, b with
  | DynSlice d x, DynSlice e y => (d =? e) && (x =? y)
  | AllGather d, AllGather e => d =? e
  | AllToAll s u, AllToAll s' u' => (s =? s') && (u =? u')
  | AllPermute t, AllPermute t' => ty_eqb t t'
  | _, _ => false
  end.

Fixpoint plan_eqb (p q : plan) : bool :=
  match p, q with
  | [], [] => true
  | a :: p', b :: q' => collective_eqb a b && plan_eqb p' q'
  | _, _ => false
  end.

Fixpoint dedup_plans (ps : list plan) : list plan :=
  match ps with
  | [] => []
  | p :: ps' => p :: filter (fun q => negb (plan_eqb p q)) (dedup_plans ps')
  end.

(** Two middle sizes per refinement: [gcd(|src|, |tgt|)], the largest both
    sides can reach, and the product of the per-dimension gcds of the local
    shapes, where both sides can meet with the same shape and so need no
    all-to-all (at the price of more gathering); each with last axes or
    large axes moved first. *)
Definition plans_on (m : mesh) (src tgt : ty) : list plan :=
  let ns := local_shape m src in
  let nt := local_shape m tgt in
  let L1 := Nat.gcd (prod ns) (prod nt) in
  let L2 := prod (map (fun '(a, b) => Nat.gcd a b) (combine ns nt)) in
  dedup_plans [build false m src tgt L1; build false m src tgt L2;
               build true m src tgt L1; build true m src tgt L2].

Definition candidates (m : mesh) (src tgt : ty) : list (refinement * plan) :=
  flat_map (fun rf => map (fun p => (rf, p))
                          (plans_on (refine_mesh rf m) (refine_ty rf src) (refine_ty rf tgt)))
           (candidate_refinements m).

(** ** The fallback: gather everything, then slice into the target *)

Fixpoint gather_all_from (i : nat) (t : ty) : plan :=
  match t with
  | [] => []
  | d :: t' => repeat (AllGather i) (length (fst d)) ++ gather_all_from (S i) t'
  end.

Fixpoint slice_all_from (i : nat) (t : ty) : plan :=
  match t with
  | [] => []
  | d :: t' => map (DynSlice i) (fst d) ++ slice_all_from (S i) t'
  end.

Definition easy_plan (src tgt : ty) : plan := gather_all_from 0 src ++ slice_all_from 0 tgt.

(** ** The planner *)

Definition planner_choice (m : mesh) (src tgt : ty) : option (refinement * plan * (nat * nat)) :=
  best m src tgt (candidates m src tgt).

Definition planner (m : mesh) (src tgt : ty) : refinement * plan :=
  match planner_choice m src tgt with
  | Some (rf, p, _) => (rf, p)
  | None => ([], easy_plan src tgt)
  end.

(** Whether the planner found a normal-form plan (the tests check it always does). *)
Definition planner_in_normal_form (m : mesh) (src tgt : ty) : bool :=
  match planner_choice m src tgt with Some _ => true | None => false end.
