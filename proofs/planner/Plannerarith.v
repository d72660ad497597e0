(** * Arithmetic for the planner's completeness proof: primes, Euclid's
    lemma, coprime parts of two numbers, and products indexed by dimension. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix.

(** ** Primes *)

Definition prime (p : nat) : Prop :=
  1 < p /\ forall d, Nat.divide d p -> d = 1 \/ d = p.

Lemma prime_divide_mul : forall p a b, prime p -> Nat.divide p (a * b) ->
  Nat.divide p a \/ Nat.divide p b.
Proof.
  intros p a b [Hp Hd] H.
  destruct (Hd (Nat.gcd p a) (Nat.gcd_divide_l p a)) as [H1 | H1].
  - right. apply (Nat.gauss p a b H H1).
  - left. rewrite <- H1. apply Nat.gcd_divide_r.
Qed.

Lemma prime_divide_prod : forall p l, prime p -> Nat.divide p (prod l) ->
  exists x, In x l /\ Nat.divide p x.
Proof.
  intros p l Hp. induction l as [|x l IH]; simpl; intros H.
  - destruct Hp as [Hp _]. apply Nat.divide_1_r in H. lia.
  - destruct (prime_divide_mul p x (prod l) Hp H) as [H1 | H1].
    + exists x. auto.
    + destruct (IH H1) as [y [Hy Hy']]. exists y. auto.
Qed.

(** Either [k] is prime or it has a divisor other than 1 and itself. *)
Lemma classic_prime : forall k, 1 < k ->
  prime k \/ exists d, Nat.divide d k /\ d <> 1 /\ d <> k.
Proof.
  intros k Hk.
  destruct (existsb (fun d => (k mod d =? 0) && negb (d =? 1) && negb (d =? k)) (seq 1 k)) eqn:E.
  - right. apply existsb_exists in E. destruct E as [d [Hin Hd]].
    apply in_seq in Hin. rewrite !andb_true_iff, negb_true_iff, negb_true_iff in Hd.
    destruct Hd as [[Hm H1] Hk']. apply Nat.eqb_eq in Hm. apply Nat.eqb_neq in H1, Hk'.
    exists d. split; [apply Nat.mod_divide; [lia | exact Hm] | auto].
  - left. split; [exact Hk |]. intros d Hd.
    assert (Hd0 : d <> 0) by (intros ->; destruct Hd as [z Hz]; lia).
    assert (d <= k) by (apply Nat.divide_pos_le; [lia | exact Hd]).
    assert (Hin : In d (seq 1 k)) by (apply in_seq; lia).
    assert (Hf : (k mod d =? 0) && negb (d =? 1) && negb (d =? k) = false).
    { destruct ((k mod d =? 0) && negb (d =? 1) && negb (d =? k)) eqn:Hb; [| reflexivity].
      rewrite <- E. symmetry. apply existsb_exists. eauto. }
    apply Nat.mod_divide in Hd; [| exact Hd0]. rewrite Hd in Hf. simpl in Hf.
    destruct (Nat.eqb_spec d 1); [left; assumption |].
    destruct (Nat.eqb_spec d k); [right; assumption |]. discriminate.
Qed.

Lemma prime_divisor_exists : forall k, 1 < k -> exists p, prime p /\ Nat.divide p k.
Proof.
  intros k. induction k as [k IH] using lt_wf_ind. intros Hk.
  destruct (classic_prime k Hk) as [Hpr | [d [Hd [Hd1 Hdk]]]].
  - exists k. split; [exact Hpr | apply Nat.divide_refl].
  - assert (Hd0 : d <> 0) by (intros ->; destruct Hd as [z Hz]; lia).
    assert (d <= k) by (apply Nat.divide_pos_le; [lia | exact Hd]).
    destruct (IH d ltac:(lia) ltac:(lia)) as [p [Hp Hpd]].
    exists p. split; [exact Hp | eapply Nat.divide_trans; eassumption].
Qed.

(** ** The coprime parts of two numbers *)

Lemma gcd_parts : forall n g, 0 < n ->
  n = Nat.gcd n g * (n / Nat.gcd n g) /\ g = Nat.gcd n g * (g / Nat.gcd n g)
  /\ Nat.gcd (n / Nat.gcd n g) (g / Nat.gcd n g) = 1 /\ 0 < Nat.gcd n g.
Proof.
  intros n g Hn.
  assert (Hc : Nat.gcd n g <> 0) by (intros H; apply Nat.gcd_eq_0_l in H; lia).
  split; [apply Nat.div_exact; [exact Hc |]; apply Nat.mod_divide; [exact Hc | apply Nat.gcd_divide_l] |].
  split; [apply Nat.div_exact; [exact Hc |]; apply Nat.mod_divide; [exact Hc | apply Nat.gcd_divide_r] |].
  split; [apply Nat.gcd_div_gcd; auto | lia].
Qed.

Lemma gcd_one_divide_r : forall a b b', Nat.gcd a b = 1 -> Nat.divide b' b -> Nat.gcd a b' = 1.
Proof.
  intros a b b' H Hb. apply Nat.divide_1_r. rewrite <- H.
  apply Nat.gcd_greatest; [apply Nat.gcd_divide_l |].
  eapply Nat.divide_trans; [apply Nat.gcd_divide_r | exact Hb].
Qed.

(** Multiplying [n] by part of what [g] has in excess multiplies their gcd. *)
Lemma gcd_mul_excess : forall n g q, 0 < n -> 0 < g ->
  Nat.divide q (g / Nat.gcd g n) -> Nat.gcd (n * q) g = q * Nat.gcd n g.
Proof.
  intros n g q Hn Hg Hq. rewrite Nat.gcd_comm in Hq.
  destruct (gcd_parts n g Hn) as [En [Eg [Hab Hc]]].
  set (c := Nat.gcd n g) in *. set (a := n / c) in *. set (b := g / c) in *.
  destruct Hq as [b' Hb']. 
  assert (Hab' : Nat.gcd a b' = 1) by (apply (gcd_one_divide_r a b b' Hab); exists q; lia).
  rewrite En, Eg at 1. rewrite Hb'.
  replace (c * a * q) with (c * (q * a)) by ring.
  replace (c * (b' * q)) with (c * (q * b')) by ring.
  rewrite Nat.gcd_mul_mono_l, Nat.gcd_mul_mono_l, Hab'. ring.
Qed.

(** Dividing [n] by part of what it has in excess of [g] keeps their gcd. *)
Lemma gcd_div_excess : forall n g q, 0 < n -> 0 < q ->
  Nat.divide q (n / Nat.gcd n g) -> Nat.gcd (n / q) g = Nat.gcd n g.
Proof.
  intros n g q Hn Hq Hd.
  destruct (gcd_parts n g Hn) as [En [Eg [Hab Hc]]].
  set (c := Nat.gcd n g) in *. set (a := n / c) in *. set (b := g / c) in *.
  destruct Hd as [a' Ha'].
  assert (Ha'b : Nat.gcd a' b = 1).
  { rewrite Nat.gcd_comm. apply (gcd_one_divide_r b a a'); [rewrite Nat.gcd_comm; exact Hab |].
    exists q. lia. }
  assert (Hnq : n / q = c * a').
  { rewrite En, Ha'. replace (c * (a' * q)) with ((c * a') * q) by ring.
    apply Nat.div_mul. lia. }
  rewrite Hnq, Eg at 1. rewrite Nat.gcd_mul_mono_l, Ha'b. ring.
Qed.

(** ** Products indexed by [0 .. r-1] *)

Definition pseq (f : nat -> nat) (r : nat) : nat := prod (map f (seq 0 r)).

Lemma pseq_S : forall f r, pseq f (S r) = pseq f r * f r.
Proof.
  intros f r. unfold pseq. rewrite seq_S, map_app, prod_app. simpl. ring.
Qed.

Lemma pseq_ext : forall f g r, (forall d, d < r -> f d = g d) -> pseq f r = pseq g r.
Proof.
  intros f g r H. unfold pseq. f_equal. apply map_ext_in. intros d Hd.
  apply in_seq in Hd. apply H. lia.
Qed.

Lemma pseq_one : forall f f' r s, s < r -> (forall d, d <> s -> f' d = f d) ->
  pseq f' r * f s = pseq f r * f' s.
Proof.
  intros f f' r s Hs H. induction r as [|r IH]; [lia |].
  rewrite !pseq_S. destruct (Nat.eq_dec s r) as [-> | Hne].
  - rewrite (pseq_ext f' f r) by (intros d Hd; apply H; lia). ring.
  - rewrite (H r) by congruence. specialize (IH ltac:(lia)). nia.
Qed.

Lemma pseq_le : forall f g r, (forall d, d < r -> f d <= g d) -> pseq f r <= pseq g r.
Proof.
  intros f g r H. induction r as [|r IH]; [unfold pseq; simpl; lia |].
  rewrite !pseq_S. apply Nat.mul_le_mono; [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Lemma pseq_pos : forall f r, (forall d, d < r -> 0 < f d) -> 0 < pseq f r.
Proof.
  intros f r H. induction r as [|r IH]; [unfold pseq; simpl; lia |].
  rewrite pseq_S. pose proof (H r ltac:(lia)). assert (0 < pseq f r) by (apply IH; intros; apply H; lia).
  nia.
Qed.

Lemma pseq_prime : forall p f r, prime p -> Nat.divide p (pseq f r) ->
  exists d, d < r /\ Nat.divide p (f d).
Proof.
  intros p f r Hp H. destruct (prime_divide_prod p _ Hp H) as [x [Hx Hpx]].
  apply in_map_iff in Hx. destruct Hx as [d [<- Hd]]. apply in_seq in Hd.
  exists d. split; [lia | exact Hpx].
Qed.

Lemma pseq_divide : forall f g r, (forall d, d < r -> Nat.divide (f d) (g d)) ->
  Nat.divide (pseq f r) (pseq g r).
Proof.
  intros f g r H. induction r as [|r IH]; [apply Nat.divide_refl |].
  rewrite !pseq_S. destruct (IH (fun d Hd => H d ltac:(lia))) as [x Hx].
  destruct (H r ltac:(lia)) as [y Hy]. exists (x * y). rewrite Hx, Hy. ring.
Qed.

(** Pointwise divisibility between positive products that are equal is equality. *)
Lemma pseq_divide_eq : forall f g r, (forall d, d < r -> Nat.divide (f d) (g d)) ->
  (forall d, d < r -> 0 < g d) -> pseq f r = pseq g r -> forall d, d < r -> f d = g d.
Proof.
  intros f g r. induction r as [|r IH]; intros Hdiv Hpos Heq d Hd; [lia |].
  rewrite !pseq_S in Heq.
  assert (Hle : forall e, e < S r -> f e <= g e)
    by (intros e He; apply Nat.divide_pos_le; [apply Hpos; exact He | apply Hdiv; exact He]).
  assert (Hfpos : forall e, e < S r -> 0 < f e).
  { intros e He. destruct (f e) eqn:E; [| lia]. destruct (Hdiv e He) as [z Hz].
    rewrite E in Hz. pose proof (Hpos e He). lia. }
  pose proof (pseq_le f g r (fun e He => Hle e ltac:(lia))) as H1.
  pose proof (pseq_pos f r (fun e He => Hfpos e ltac:(lia))) as H2.
  pose proof (Hle r ltac:(lia)). pose proof (Hfpos r ltac:(lia)).
  assert (Hr : f r = g r) by nia.
  assert (Hrest : pseq f r = pseq g r) by (rewrite Hr in Heq; nia).
  destruct (Nat.eq_dec d r) as [-> | Hne]; [exact Hr |].
  apply IH; try lia.
  - intros e He. apply Hdiv. lia.
  - intros e He. apply Hpos. lia.
Qed.

Lemma prod_map_pseq : forall A (h : A -> nat) (l : list A) x0,
  prod (map h l) = pseq (fun d => h (nth d l x0)) (length l).
Proof.
  intros A h l x0. induction l as [|x l IH] using rev_ind; [reflexivity |].
  rewrite map_app, prod_app, app_length, Nat.add_1_r, pseq_S, IH. simpl.
  rewrite app_nth2 by lia. rewrite Nat.sub_diag. simpl.
  f_equal; [| ring]. apply pseq_ext. intros d Hd. rewrite app_nth1 by lia. reflexivity.
Qed.

Lemma pseq_mul : forall f g r, pseq (fun d => f d * g d) r = pseq f r * pseq g r.
Proof.
  intros f g r. induction r as [|r IH]; [reflexivity |]. rewrite !pseq_S, IH. ring.
Qed.

Lemma pseq_divide_one : forall f r d, d < r -> Nat.divide (f d) (pseq f r).
Proof.
  intros f r d Hd. induction r as [|r IH]; [lia |]. rewrite pseq_S.
  destruct (Nat.eq_dec d r) as [-> | Hne].
  - exists (pseq f r). ring.
  - destruct (IH ltac:(lia)) as [z Hz]. exists (z * f r). rewrite Hz. ring.
Qed.
