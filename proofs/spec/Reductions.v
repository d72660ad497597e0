(** * Reductions beyond sum: the model of "Reductions beyond sum" (Part 3).

    Every pending-sum theorem takes its values in an abstract commutative
    monoid ([Sums.cmonoid]); the operations the command and the runtime
    offer on integers are such monoids, built here with their laws:
    - the runtime's integer types (i8, i16, i32, i64 signed two's
      complement; u8, u16, u32, u64 unsigned) as [int_ty], whose values are
      the integers from [lowest t] to [highest t];
    - [sum] and [prod] wrap modulo [2^width] back into that range (so
      signed and unsigned types share the ring [Z/2^width]), with
      identities 0 and 1;
    - [max] and [min] compare the values, with identities the lowest and the
      highest value;
    - [monoid_of o t]: the monoid of operation [o] on type [t], over which
      [Reductionsproof] instantiates the headline theorems once.
    [avg] is not a monoid of its own: it is the sum over the group followed
    by one division by the group size, over a carrier where that division
    undoes the sum of copies and distributes over sums ([avg_carrier]);
    the runtime offers it on
    floating types only, whose rounding no theorem here covers. *)

From Coq Require Import List ZArith Lia Bool Eqdep_dec.
Import ListNotations.
From Redist Require Import Sums.

Local Open Scope Z_scope.

(** ** The runtime's integer types *)

Record int_ty := IntTy { it_signed : bool; it_bits : positive }.

Definition i8 := IntTy true 8.
Definition i16 := IntTy true 16.
Definition i32 := IntTy true 32.
Definition i64 := IntTy true 64.
Definition u8 := IntTy false 8.
Definition u16 := IntTy false 16.
Definition u32 := IntTy false 32.
Definition u64 := IntTy false 64.

Definition modulus (t : int_ty) : Z := 2 ^ Zpos (it_bits t).

Definition lowest (t : int_ty) : Z :=
  if it_signed t then - 2 ^ (Zpos (it_bits t) - 1) else 0.

Definition highest (t : int_ty) : Z := lowest t + modulus t - 1.

(** The value of type [t] with the low [width] bits of [z]: two's
    complement wrap-around for signed types, modulo for unsigned ones. *)
Definition wrap (t : int_ty) (z : Z) : Z := lowest t + (z - lowest t) mod modulus t.

(** A value of type [t]: an integer that wrapping leaves unchanged.  The
    proof is a boolean equation, so two values with the same integer are
    equal ([ival_eq]) without any axiom. *)
Definition ival (t : int_ty) : Type := { z : Z | Z.eqb (wrap t z) z = true }.

Lemma modulus_pos : forall t, 0 < modulus t.
Proof. intros t. unfold modulus. apply Z.pow_pos_nonneg; lia. Qed.

Lemma wrap_mod : forall t z, wrap t z mod modulus t = z mod modulus t.
Proof.
  intros t z. unfold wrap. rewrite Z.add_mod_idemp_r by (pose proof (modulus_pos t); lia).
  f_equal. lia.
Qed.

(** Wrapping reads only the residue modulo [2^width]. *)
Lemma wrap_congr : forall t a b, a mod modulus t = b mod modulus t -> wrap t a = wrap t b.
Proof.
  intros t a b H. unfold wrap. f_equal.
  pose proof (modulus_pos t) as Hp.
  rewrite <- (Zminus_mod_idemp_l a), <- (Zminus_mod_idemp_l b), H. reflexivity.
Qed.

Lemma wrap_wrap : forall t z, wrap t (wrap t z) = wrap t z.
Proof. intros t z. apply wrap_congr. apply wrap_mod. Qed.

Lemma wrap_is_value : forall t z, Z.eqb (wrap t (wrap t z)) (wrap t z) = true.
Proof. intros t z. rewrite wrap_wrap. apply Z.eqb_refl. Qed.

Definition mk_ival (t : int_ty) (z : Z) : ival t := exist _ (wrap t z) (wrap_is_value t z).

Lemma ival_eq : forall t (x y : ival t), proj1_sig x = proj1_sig y -> x = y.
Proof.
  intros t [x Hx] [y Hy]. simpl. intros ->. f_equal. apply UIP_dec. exact bool_dec.
Qed.

Lemma ival_wrap : forall t (x : ival t), wrap t (proj1_sig x) = proj1_sig x.
Proof. intros t [x Hx]. simpl. apply Z.eqb_eq. exact Hx. Qed.

Lemma wrap_bounds : forall t z, lowest t <= wrap t z <= highest t.
Proof.
  intros t z. unfold wrap, highest.
  pose proof (Z.mod_pos_bound (z - lowest t) (modulus t) (modulus_pos t)) as H.
  revert H. generalize ((z - lowest t) mod modulus t). lia.
Qed.

Lemma ival_range : forall t (x : ival t), lowest t <= proj1_sig x <= highest t.
Proof. intros t x. rewrite <- ival_wrap. apply wrap_bounds. Qed.

Lemma wrap_in_range : forall t z, lowest t <= z <= highest t -> wrap t z = z.
Proof.
  intros t z H. unfold wrap, highest in *. rewrite Z.mod_small; lia.
Qed.

(** ** [sum] and [prod]: wrapping arithmetic *)

Definition wrap_op (t : int_ty) (f : Z -> Z -> Z) (x y : ival t) : ival t :=
  mk_ival t (f (proj1_sig x) (proj1_sig y)).

(** An operation compatible with residues ([+] and [*]) stays associative,
    commutative and with the same identity once wrapped. *)
Section Wrapped.
Variable t : int_ty.
Variable f : Z -> Z -> Z.
Hypothesis f_mod_l : forall a b, f (a mod modulus t) b mod modulus t = f a b mod modulus t.
Hypothesis f_assoc : forall a b c, f a (f b c) = f (f a b) c.
Hypothesis f_comm : forall a b, f a b = f b a.
Variable e : Z.
Hypothesis f_e : forall a, f e a = a.

Lemma f_wrap_l : forall a b, wrap t (f (wrap t a) b) = wrap t (f a b).
Proof.
  intros a b. apply wrap_congr. rewrite <- f_mod_l, wrap_mod, f_mod_l. reflexivity.
Qed.

Lemma f_wrap_r : forall a b, wrap t (f a (wrap t b)) = wrap t (f a b).
Proof. intros a b. rewrite f_comm, f_wrap_l, f_comm. reflexivity. Qed.

Lemma wrap_op_assoc : forall x y z,
  wrap_op t f x (wrap_op t f y z) = wrap_op t f (wrap_op t f x y) z.
Proof.
  intros x y z. apply ival_eq. unfold wrap_op, mk_ival. simpl.
  rewrite f_wrap_l, f_wrap_r, f_assoc. reflexivity.
Qed.

Lemma wrap_op_comm : forall x y, wrap_op t f x y = wrap_op t f y x.
Proof. intros x y. apply ival_eq. unfold wrap_op, mk_ival. simpl. rewrite f_comm. reflexivity. Qed.

Lemma wrap_op_id : forall x, wrap_op t f (mk_ival t e) x = x.
Proof.
  intros x. apply ival_eq. unfold wrap_op, mk_ival. simpl.
  rewrite f_wrap_l, f_e. apply ival_wrap.
Qed.

End Wrapped.

Lemma add_mod_l : forall t a b, (a mod modulus t + b) mod modulus t = (a + b) mod modulus t.
Proof. intros t a b. apply Z.add_mod_idemp_l. pose proof (modulus_pos t). lia. Qed.

Lemma mul_mod_l : forall t a b, (a mod modulus t * b) mod modulus t = (a * b) mod modulus t.
Proof. intros t a b. apply Z.mul_mod_idemp_l. pose proof (modulus_pos t). lia. Qed.

Definition sum_monoid (t : int_ty) : cmonoid := {|
  carrier := ival t;
  zero := mk_ival t 0;
  add := wrap_op t Z.add;
  add_assoc := wrap_op_assoc t Z.add (add_mod_l t) Z.add_assoc Z.add_comm;
  add_comm := wrap_op_comm t Z.add Z.add_comm;
  add_zero_l := wrap_op_id t Z.add (add_mod_l t) 0 Z.add_0_l
|}.

Definition prod_monoid (t : int_ty) : cmonoid := {|
  carrier := ival t;
  zero := mk_ival t 1;
  add := wrap_op t Z.mul;
  add_assoc := wrap_op_assoc t Z.mul (mul_mod_l t) Z.mul_assoc Z.mul_comm;
  add_comm := wrap_op_comm t Z.mul Z.mul_comm;
  add_zero_l := wrap_op_id t Z.mul (mul_mod_l t) 1 Z.mul_1_l
|}.

(** ** [max] and [min]: comparisons *)

(** [pick] keeps the larger of two values ([max]) or the smaller ([min],
    [keep_larger = false]); no arithmetic, so no wrapping. *)
Definition pick (t : int_ty) (keep_larger : bool) (x y : ival t) : ival t :=
  if Bool.eqb keep_larger (proj1_sig x <=? proj1_sig y) then y else x.

Lemma proj_pick : forall t b (x y : ival t),
  proj1_sig (pick t b x y)
  = if Bool.eqb b (proj1_sig x <=? proj1_sig y) then proj1_sig y else proj1_sig x.
Proof. intros t b x y. unfold pick. destruct (Bool.eqb _ _); reflexivity. Qed.

Ltac pick_cases b :=
  destruct b; repeat rewrite proj_pick;
  repeat (match goal with
          | |- context [proj1_sig ?x <=? proj1_sig ?y] => destruct (Z.leb_spec (proj1_sig x) (proj1_sig y))
          end; simpl);
  lia.

Lemma pick_assoc : forall t b x y z, pick t b x (pick t b y z) = pick t b (pick t b x y) z.
Proof. intros t b x y z. apply ival_eq. pick_cases b. Qed.

Lemma pick_comm : forall t b x y, pick t b x y = pick t b y x.
Proof. intros t b x y. apply ival_eq. pick_cases b. Qed.

(** The identity of [max] is the lowest value, that of [min] the highest. *)
Definition pick_identity (t : int_ty) (keep_larger : bool) : ival t :=
  mk_ival t (if keep_larger then lowest t else highest t).

Lemma pick_identity_l : forall t b x, pick t b (pick_identity t b) x = x.
Proof.
  intros t b x. apply ival_eq. rewrite proj_pick. unfold pick_identity, mk_ival. simpl.
  pose proof (ival_range t x) as Hx.
  assert (Hlh : lowest t <= highest t) by lia.
  destruct b; rewrite wrap_in_range by lia;
    destruct (Z.leb_spec (lowest t) (proj1_sig x)); destruct (Z.leb_spec (highest t) (proj1_sig x));
    simpl; lia.
Qed.

Definition pick_monoid (t : int_ty) (keep_larger : bool) : cmonoid := {|
  carrier := ival t;
  zero := pick_identity t keep_larger;
  add := pick t keep_larger;
  add_assoc := pick_assoc t keep_larger;
  add_comm := pick_comm t keep_larger;
  add_zero_l := pick_identity_l t keep_larger
|}.

(** ** The operations *)

(** The commutative-monoid operations of pending types on integers;
    [avg] is apart ([avg_carrier]). *)
Inductive op : Type := OpSum | OpProd | OpMax | OpMin.

Definition monoid_of (o : op) (t : int_ty) : cmonoid :=
  match o with
  | OpSum => sum_monoid t
  | OpProd => prod_monoid t
  | OpMax => pick_monoid t true
  | OpMin => pick_monoid t false
  end.

(** The model agrees with the runtime's C++ arithmetic on its types. *)
Example i8_sum_wraps : proj1_sig (add (monoid_of OpSum i8) (mk_ival i8 100) (mk_ival i8 100)) = -56.
Proof. reflexivity. Qed.
Example u8_prod_wraps : proj1_sig (add (monoid_of OpProd u8) (mk_ival u8 16) (mk_ival u8 17)) = 16.
Proof. reflexivity. Qed.
Example i64_max_identity : proj1_sig (zero (monoid_of OpMax i64)) = -9223372036854775808.
Proof. reflexivity. Qed.
Example u64_min_identity : proj1_sig (zero (monoid_of OpMin u64)) = 18446744073709551615.
Proof. reflexivity. Qed.
Example i32_max_signed : proj1_sig (add (monoid_of OpMax i32) (mk_ival i32 (-1)) (mk_ival i32 1)) = 1.
Proof. reflexivity. Qed.
Example u16_sum_identity : proj1_sig (zero (monoid_of OpSum u16)) = 0.
Proof. reflexivity. Qed.
Example i16_prod_identity : proj1_sig (zero (monoid_of OpProd i16)) = 1.
Proof. reflexivity. Qed.
Example u32_min : proj1_sig (add (monoid_of OpMin u32) (mk_ival u32 (-1)) (mk_ival u32 7)) = 7.
Proof. reflexivity. Qed.

(** Where an axis becomes pending, max and min leave the value on every
    member (a group of copies combines to the value), sum and prod on
    member 0 with the identity on the others ([Sums.fill]). *)
Definition fill_of (o : op) : fill :=
  match o with OpMax | OpMin => KeepAll | OpSum | OpProd => KeepOne end.

(** ** [avg]: the sum over the group, then one division by its size *)

(** A carrier where dividing the sum of [n] copies of [x] by [n] gives
    [x] back ([n >= 1]), dividing a sum divides each term, and dividing by
    [a] then by [b] divides by [a * b]: exact for rationals ([Qc_avg] in
    [Reductionsproof]); the runtime's floating types satisfy these only up
    to rounding.  The last two are what an avg target with pending axes
    needs: the runtime divides every rank's value once, before the target's
    groups are summed, by the sizes of the axes the plan reduced only. *)
Record avg_carrier := {
  av_monoid : cmonoid;
  av_div : carrier av_monoid -> nat -> carrier av_monoid;
  av_div_copies : forall x n, (1 <= n)%nat -> av_div (msum av_monoid (repeat x n)) n = x;
  av_div_add : forall x y n, (1 <= n)%nat ->
    av_div (add av_monoid x y) n = add av_monoid (av_div x n) (av_div y n);
  av_div_div : forall x a b, (1 <= a)%nat -> (1 <= b)%nat -> av_div (av_div x a) b = av_div x (a * b)
}.
