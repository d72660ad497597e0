(** * Composed cuts: the facts (Part 3 of the model).

    - One cut ([cut_owner_lt] .. [cut_global_mono]): on a part [j < P], the
      local index is a bijection from the part's elements onto
      [[0, cut_extent)] whose inverse [cut_global] increases.
    - A dimension ([dim_local_of_owned], [dim_global_owned],
      [dim_global_mono]): the same for any sequence of cuts, hence
      [dim_intervals_exact] (the intervals list, in order, the globals of
      local indices [0 .. extent-1]), [dim_intervals_owned] (they are exactly
      the owned indices) and [dim_intervals_sorted] (sorted and disjoint).
    - Owners ([dim_owner_unique], [dim_owner_exists], [dim_owns_chunks]):
      every index of a dimension has an owner, two owners have the same
      part in every cut, and ownership depends on those parts only
      (replication over the axes no cut names, as in Part 2).
    - The holding ([c_local_of_has], [c_global_has], [c_has_intervals]): the
      same over the product of the dimensions.
    - Part 2 ([one_cut_agrees]): a type of one ceil-block cut per dimension
      has Part 2's box functions on every device. *)

From Coq Require Import List Arith Lia Bool Sorted.
Import ListNotations.
From Redist Require Import Model Radix Semanticsproof Layout Layoutproof Exchangeproof Cuts.

(** A cut has at least one part and, when cyclic, blocks of at least one element. *)
Definition cut_ok (k : cut) (P : nat) : Prop :=
  1 <= P /\ match k with Block _ => True | Cyclic _ B => 1 <= B end.

Lemma div_mod_of : forall a B q r, r < B -> a = q * B + r -> a / B = q /\ a mod B = r.
Proof.
  intros a B q r Hr Ha. split.
  - symmetry. apply (Nat.div_unique a B q r); lia.
  - symmetry. apply (Nat.mod_unique a B q r); lia.
Qed.

Lemma div_mod_parts : forall a B, 1 <= B -> a = a / B * B + a mod B /\ a mod B < B.
Proof.
  intros a B HB. pose proof (Nat.div_mod a B). pose proof (Nat.mod_upper_bound a B). split; [|]; lia.
Qed.

(** Row-major order of (round, part) pairs. *)
Lemma lex_lt : forall P q j a s, j < P -> s < P ->
  (q * P + j < a * P + s <-> q < a \/ (q = a /\ j < s)).
Proof.
  intros P q j a s Hj Hs. split.
  - intros H. destruct (Nat.lt_trichotomy q a) as [Hq | [Hq | Hq]]; [left; exact Hq | right; subst; lia |].
    exfalso. assert (a * P + P <= q * P) by nia. lia.
  - intros [Hq | [Hq Hjs]]; [| subst; lia]. assert (q * P + P <= a * P) by nia. lia.
Qed.

(** ** One ceil-block cut *)

Section BlockCut.
Variables (xs : list axis) (P E : nat).
Hypothesis HP : 1 <= P.
Let k := Block xs.

Lemma block_b : E <= P * ceil_div E P.
Proof. apply ceil_div_ge. exact HP. Qed.

Lemma block_owner_lt : forall i, i < E -> cut_owner k P E i < P.
Proof.
  intros i Hi. simpl. pose proof block_b. set (b := ceil_div E P) in *. apply Nat.div_lt_upper_bound; nia.
Qed.

Lemma block_of_owned : forall i, i < E ->
  let j := cut_owner k P E i in
  cut_local k P E j i < cut_extent k P E j /\ cut_global k P E j (cut_local k P E j i) = i.
Proof.
  intros i Hi. simpl. unfold block_lo. pose proof block_b. set (b := ceil_div E P) in *.
  assert (Hb : b <> 0) by (intros E0; rewrite E0 in *; lia).
  destruct (div_mod_parts i b) as [Hd Hm]; [lia |].
  set (j := i / b) in *. assert (j * b <= i) by lia. assert (i < S j * b) by (simpl; lia).
  split; lia.
Qed.

Lemma block_of_local : forall j l, l < cut_extent k P E j ->
  cut_global k P E j l < E /\ cut_owner k P E (cut_global k P E j l) = j
  /\ cut_local k P E j (cut_global k P E j l) = l.
Proof.
  intros j l Hl. simpl in *. unfold block_lo in *. set (b := ceil_div E P) in *.
  assert (Hlo : j * b < E) by lia. rewrite Nat.min_r in * by lia.
  assert (Hlb : l < b) by (assert (S j * b = j * b + b) by (simpl; lia); lia).
  split; [lia |]. split; [| lia].
  destruct (div_mod_of (j * b + l) b j l Hlb) as [H _]; [lia | exact H].
Qed.

End BlockCut.

(** ** One block-cyclic cut *)

Section CyclicCut.
Variables (xs : list axis) (B P E : nat).
Hypotheses (HB : 1 <= B) (HP : 1 <= P).
Let k := Cyclic xs B.

Lemma cyclic_owner_lt : forall i, cut_owner k P E i < P.
Proof. intros i. simpl. apply Nat.mod_upper_bound. lia. Qed.

(** The figures of [cut_extent]: [E = (a*P + s)*B + e]. *)
Let whole := E / B.
Let a := whole / P.
Let s := whole mod P.
Let e := E mod B.

Lemma cyclic_extent_eq : forall j, cut_extent k P E j
  = B * (a + (if j <? s then 1 else 0)) + (if j =? s then e else 0).
Proof. reflexivity. Qed.

Lemma cyclic_figures : E = whole * B + e /\ e < B /\ whole = a * P + s /\ s < P.
Proof.
  destruct (div_mod_parts E B HB). destruct (div_mod_parts whole P HP). subst a s e whole. lia.
Qed.

Lemma cyclic_of_owned : forall i, i < E ->
  let j := cut_owner k P E i in
  cut_local k P E j i < cut_extent k P E j /\ cut_global k P E j (cut_local k P E j i) = i.
Proof.
  intros i Hi j. rewrite cyclic_extent_eq. destruct cyclic_figures as (HE & He & Hw & Hs).
  simpl in j |- *. destruct (div_mod_parts i B HB) as [Hi1 Hi2].
  destruct (div_mod_parts (i / B) P HP) as [Hk1 Hk2]. fold j in Hk1, Hk2.
  set (q := i / B / P) in *. set (r := i mod B) in *. set (kk := i / B) in *.
  destruct (div_mod_of (q * B + r) B q r Hi2 eq_refl) as [Eq Er]. rewrite Eq, Er.
  split; [| lia].
  assert (Hk : kk <= whole) by (destruct (Nat.le_gt_cases kk whole); [assumption |]; nia).
  destruct (Nat.eq_dec kk whole) as [Ek | Ek].
  - assert (Eqj : q = a /\ j = s).
    { rewrite Hk1 in Ek. rewrite Hw in Ek. destruct (div_mod_of (q * P + j) P q j Hk2 eq_refl).
      destruct (div_mod_of (a * P + s) P a s Hs eq_refl). split; congruence. }
    destruct Eqj as [-> ->]. rewrite Nat.ltb_irrefl, Nat.eqb_refl.
    assert (r < e) by nia. lia.
  - assert (Hlt : q * P + j < a * P + s) by lia. apply lex_lt in Hlt; [| lia | lia].
    destruct Hlt as [Hq | [Hq Hjs]].
    + assert (q * B + r < a * B) by nia. destruct (j <? s), (j =? s); nia.
    + subst q. apply Nat.ltb_lt in Hjs. rewrite Hjs. nia.
Qed.

Lemma cyclic_of_local : forall j l, j < P -> l < cut_extent k P E j ->
  cut_global k P E j l < E /\ cut_owner k P E (cut_global k P E j l) = j
  /\ cut_local k P E j (cut_global k P E j l) = l.
Proof.
  intros j l Hj Hl. rewrite cyclic_extent_eq in Hl. destruct cyclic_figures as (HE & He & Hw & Hs).
  simpl. destruct (div_mod_parts l B HB) as [Hl1 Hl2].
  set (q := l / B) in *. set (r := l mod B) in *.
  destruct (div_mod_of ((q * P + j) * B + r) B (q * P + j) r Hl2 eq_refl) as [E1 E2].
  rewrite E1, E2. destruct (div_mod_of (q * P + j) P q j Hj eq_refl) as [E3 E4].
  rewrite E3, E4. split; [| split; [reflexivity | lia]].
  (* the block [q*P + j] is a whole block before [whole], or the final partial one *)
  assert (Hwhole : q * P + j < whole -> (q * P + j) * B + r < E) by (intros; nia).
  destruct (Nat.ltb_spec j s) as [Hjs | Hjs]; destruct (Nat.eqb_spec j s) as [Ejs | Ejs]; try lia.
  - apply Hwhole. rewrite Hw. apply lex_lt; [lia | lia |]. assert (q < a + 1) by nia. lia.
  - subst j. destruct (Nat.lt_ge_cases q a) as [Hq | Hq].
    + apply Hwhole. rewrite Hw. apply lex_lt; lia.
    + assert (q = a) by nia. subst q. assert (r < e) by nia. nia.
  - apply Hwhole. rewrite Hw. apply lex_lt; [lia | lia |]. left. nia.
Qed.

Lemma cyclic_global_run : forall j lo t, lo mod B + t < B ->
  cut_global k P E j (lo + t) = cut_global k P E j lo + t.
Proof.
  intros j lo t H. simpl. destruct (div_mod_parts lo B HB) as [H1 H2].
  destruct (div_mod_of (lo + t) B (lo / B) (lo mod B + t) H) as [E1 E2]; [lia |].
  rewrite E1, E2. lia.
Qed.

Lemma cyclic_global_mono : forall j l l', j < P -> l < l' ->
  cut_global k P E j l < cut_global k P E j l'.
Proof.
  intros j l l' Hj H. simpl. destruct (div_mod_parts l B HB). destruct (div_mod_parts l' B HB).
  assert (Hq : l / B <= l' / B) by (apply Nat.div_le_mono; lia).
  destruct (Nat.eq_dec (l / B) (l' / B)) as [Eq | Nq].
  - rewrite Eq in *. nia.
  - assert (l / B * P + P <= l' / B * P) by nia. nia.
Qed.

End CyclicCut.

(** ** One cut, either kind *)

Lemma cut_owner_lt : forall k P E i, cut_ok k P -> i < E -> cut_owner k P E i < P.
Proof.
  intros [xs | xs B] P E i [HP HB] Hi; [apply block_owner_lt | apply cyclic_owner_lt]; assumption.
Qed.

Lemma cut_of_owned : forall k P E i, cut_ok k P -> i < E ->
  let j := cut_owner k P E i in
  cut_local k P E j i < cut_extent k P E j /\ cut_global k P E j (cut_local k P E j i) = i.
Proof.
  intros [xs | xs B] P E i [HP HB] Hi; [apply block_of_owned | apply cyclic_of_owned]; assumption.
Qed.

Lemma cut_of_local : forall k P E j l, cut_ok k P -> j < P -> l < cut_extent k P E j ->
  cut_global k P E j l < E /\ cut_owner k P E (cut_global k P E j l) = j
  /\ cut_local k P E j (cut_global k P E j l) = l.
Proof.
  intros [xs | xs B] P E j l [HP HB] Hj Hl; [apply block_of_local | apply cyclic_of_local]; assumption.
Qed.

Lemma cut_global_mono : forall k P E j l l', cut_ok k P -> j < P -> l < l' ->
  cut_global k P E j l < cut_global k P E j l'.
Proof.
  intros [xs | xs B] P E j l l' [HP HB] Hj H; [simpl; lia | apply cyclic_global_mono; assumption].
Qed.

(** [map g] of a run of consecutive indices on which [g] is consecutive. *)
Lemma map_seq_run : forall (g : nat -> nat) lo n, (forall t, t < n -> g (lo + t) = g lo + t) ->
  map g (seq lo n) = seq (g lo) n.
Proof.
  intros g lo n. induction n as [|n IH]; intros H; [reflexivity |].
  rewrite !seq_S, map_app, IH by (intros t Ht; apply H; lia). simpl. rewrite H by lia. reflexivity.
Qed.

Lemma intervals_elems_flat_map : forall A (f : A -> list (nat * nat)) xs,
  intervals_elems (flat_map f xs) = flat_map (fun x => intervals_elems (f x)) xs.
Proof.
  intros A f xs. induction xs as [|x xs IH]; [reflexivity |].
  simpl. unfold intervals_elems in *. rewrite flat_map_app, IH. reflexivity.
Qed.

Lemma cyclic_runs_elems : forall (g : nat -> nat) B, 1 <= B ->
  (forall lo t, lo mod B + t < B -> g (lo + t) = g lo + t) ->
  forall fuel lo n, n <= fuel -> intervals_elems (cyclic_runs g B fuel lo n) = map g (seq lo n).
Proof.
  intros g B HB Hg fuel. induction fuel as [|f IH]; intros lo n Hn.
  - replace n with 0 by lia. reflexivity.
  - simpl. destruct (Nat.eqb_spec n 0) as [-> | Hn0]; [reflexivity |].
    pose proof (Nat.mod_upper_bound lo B ltac:(lia)).
    set (len := Nat.min n (B - lo mod B)).
    replace (intervals_elems ((g lo, len) :: cyclic_runs g B f (lo + len) (n - len)))
      with (seq (g lo) len ++ intervals_elems (cyclic_runs g B f (lo + len) (n - len))) by reflexivity.
    rewrite IH by lia.
    replace n with (len + (n - len)) at 2 by lia. rewrite seq_app, map_app.
    rewrite (map_seq_run g lo len); [reflexivity |]. intros t Ht. apply Hg. lia.
Qed.

Lemma cut_image_elems : forall k P E j iv, cut_ok k P ->
  intervals_elems (cut_image k P E j iv) = map (cut_global k P E j) (seq (fst iv) (snd iv)).
Proof.
  intros [xs | xs B] P E j [lo n] [HP HB]; simpl.
  - rewrite app_nil_r. symmetry. apply map_seq_run. intros t _. lia.
  - apply cyclic_runs_elems; [exact HB | | lia]. intros lo' t H. apply cyclic_global_run; assumption.
Qed.

(** ** A dimension *)

Section Dimension.
Variable m : mesh.

(** Device [c] is in a part of every cut, and every cut is [cut_ok]. *)
Definition chunks_ok (ks : list cut) (c : device) : Prop :=
  Forall (fun k => cut_ok k (cut_parts m k) /\ cut_chunk m k c < cut_parts m k) ks.

Lemma dim_owns_lt : forall ks E c i, dim_owns m ks E c i = true -> i < E.
Proof.
  intros [|k ks] E c i H; simpl in H; [apply Nat.ltb_lt; exact H |].
  rewrite !andb_true_iff, Nat.ltb_lt in H. tauto.
Qed.

Theorem dim_local_of_owned : forall ks E c i, chunks_ok ks c -> dim_owns m ks E c i = true ->
  dim_local m ks E c i < dim_extent m ks E c /\ dim_global m ks E c (dim_local m ks E c i) = i.
Proof.
  induction ks as [|k ks IH]; intros E c i Hok H; simpl in H |- *.
  - apply Nat.ltb_lt in H. split; [exact H | reflexivity].
  - inversion Hok as [| ? ? [Hk _] Hok']. subst.
    rewrite !andb_true_iff, Nat.ltb_lt, Nat.eqb_eq in H. destruct H as [[Hi Hj] H].
    destruct (IH _ c _ Hok' H) as [H1 H2]. split; [exact H1 |]. rewrite H2, <- Hj.
    apply cut_of_owned; assumption.
Qed.

Theorem dim_global_owned : forall ks E c l, chunks_ok ks c -> l < dim_extent m ks E c ->
  dim_owns m ks E c (dim_global m ks E c l) = true /\ dim_local m ks E c (dim_global m ks E c l) = l.
Proof.
  induction ks as [|k ks IH]; intros E c l Hok Hl; simpl in Hl |- *.
  - split; [apply Nat.ltb_lt; exact Hl | reflexivity].
  - inversion Hok as [| ? ? [Hk Hj] Hok']. subst.
    destruct (IH _ c _ Hok' Hl) as [H1 H2].
    destruct (cut_of_local k (cut_parts m k) E (cut_chunk m k c) _ Hk Hj (dim_owns_lt _ _ _ _ H1))
      as (G1 & G2 & G3).
    rewrite G3, G2, Nat.eqb_refl, H1, H2. split; [| reflexivity].
    apply Nat.ltb_lt in G1. rewrite G1. reflexivity.
Qed.

Theorem dim_global_mono : forall ks E c l l', chunks_ok ks c -> l < l' ->
  dim_global m ks E c l < dim_global m ks E c l'.
Proof.
  induction ks as [|k ks IH]; intros E c l l' Hok H; simpl; [exact H |].
  inversion Hok as [| ? ? [Hk Hj] Hok']. subst.
  apply cut_global_mono; [exact Hk | exact Hj |]. apply IH; assumption.
Qed.

(** The intervals list, in order, the global index of every local index. *)
Theorem dim_intervals_exact : forall ks E c, chunks_ok ks c ->
  intervals_elems (dim_intervals m ks E c) = map (dim_global m ks E c) (seq 0 (dim_extent m ks E c)).
Proof.
  induction ks as [|k ks IH]; intros E c Hok; simpl.
  - destruct (Nat.eqb_spec E 0) as [-> | _]; [reflexivity |]. simpl.
    rewrite app_nil_r, map_id. reflexivity.
  - inversion Hok as [| ? ? [Hk Hj] Hok']. subst.
    rewrite intervals_elems_flat_map.
    erewrite flat_map_ext by (intros iv; apply cut_image_elems; exact Hk).
    rewrite <- map_map, <- (IH _ c Hok'). unfold intervals_elems.
    induction (dim_intervals m ks _ c) as [|iv ivs IHi]; [reflexivity |].
    simpl. rewrite map_app, IHi. reflexivity.
Qed.

(** The intervals hold exactly the owned indices. *)
Theorem dim_intervals_owned : forall ks E c x, chunks_ok ks c ->
  In x (intervals_elems (dim_intervals m ks E c)) <-> dim_owns m ks E c x = true.
Proof.
  intros ks E c x Hok. rewrite dim_intervals_exact by exact Hok. rewrite in_map_iff. split.
  - intros (l & <- & Hl). apply in_seq in Hl. apply dim_global_owned; [exact Hok | lia].
  - intros H. destruct (dim_local_of_owned ks E c x Hok H) as [H1 H2].
    exists (dim_local m ks E c x). split; [exact H2 | apply in_seq; lia].
Qed.

(** Increasing, hence sorted and disjoint. *)
Theorem dim_intervals_sorted : forall ks E c, chunks_ok ks c ->
  StronglySorted lt (intervals_elems (dim_intervals m ks E c)).
Proof.
  intros ks E c Hok. rewrite dim_intervals_exact by exact Hok.
  generalize 0. induction (dim_extent m ks E c) as [|n IH]; intros lo; simpl; constructor.
  - apply IH.
  - apply Forall_forall. intros y Hy. apply in_map_iff in Hy. destruct Hy as (l & <- & Hl).
    apply in_seq in Hl. apply dim_global_mono; [exact Hok | lia].
Qed.

(** Ownership, local indices, extents and global indices depend only on the device's parts. *)
Lemma dim_owns_chunks : forall ks E c c',
  Forall (fun k => cut_chunk m k c = cut_chunk m k c') ks ->
  (forall i, dim_owns m ks E c i = dim_owns m ks E c' i)
  /\ (forall i, dim_local m ks E c i = dim_local m ks E c' i)
  /\ dim_extent m ks E c = dim_extent m ks E c'
  /\ (forall l, dim_global m ks E c l = dim_global m ks E c' l).
Proof.
  induction ks as [|k ks IH]; intros E c c' H; [repeat split; reflexivity |].
  inversion H as [| ? ? Hk H']. subst. simpl. rewrite Hk.
  destruct (IH (cut_extent k (cut_parts m k) E (cut_chunk m k c')) c c' H') as (H1 & H2 & H3 & H4).
  repeat split; intros; congruence.
Qed.

(** Replication: a device that agrees with [c] on every axis a cut names holds what [c] holds. *)
Corollary dim_owns_replicated : forall ks E c c' i,
  (forall x, In x (flat_map cut_axes ks) -> c x = c' x) ->
  dim_owns m ks E c i = dim_owns m ks E c' i.
Proof.
  intros ks E c c' i H. apply dim_owns_chunks. apply Forall_forall. intros k Hk.
  apply radix_ext. intros x Hx. apply H. apply in_flat_map. exists k. split; assumption.
Qed.

(** Two owners of one index are in the same part of every cut. *)
Theorem dim_owner_unique : forall ks E c c' i,
  dim_owns m ks E c i = true -> dim_owns m ks E c' i = true ->
  Forall (fun k => cut_chunk m k c = cut_chunk m k c') ks.
Proof.
  induction ks as [|k ks IH]; intros E c c' i H H'; [constructor |]. simpl in H, H'.
  rewrite !andb_true_iff, Nat.eqb_eq in H, H'. destruct H as [[_ Hj] H]. destruct H' as [[_ Hj'] H'].
  rewrite <- Hj in H. rewrite <- Hj' in H'. constructor; [congruence |]. eapply IH; eassumption.
Qed.

(** A device in the part of every cut that holds [i]. *)
Fixpoint owner_dev (ks : list cut) (E i : nat) (c : device) : device :=
  match ks with
  | [] => c
  | k :: ks' =>
      let P := cut_parts m k in
      let j := cut_owner k P E i in
      owner_dev ks' (cut_extent k P E j) (cut_local k P E j i) (set_radix m (cut_axes k) j c)
  end.

Lemma owner_dev_notin : forall ks E i c y, ~ In y (flat_map cut_axes ks) -> owner_dev ks E i c y = c y.
Proof.
  induction ks as [|k ks IH]; intros E i c y Hy; [reflexivity |]. simpl in Hy |- *.
  rewrite IH by (intros H; apply Hy, in_or_app; right; exact H).
  apply set_radix_notin. intros H. apply Hy, in_or_app. left. exact H.
Qed.

(** Every index of a dimension has an owner on the mesh. *)
Theorem dim_owner_exists : forall ks E i c, mesh_wf m = true ->
  forallb (cut_wf m) ks = true -> NoDup (flat_map cut_axes ks) -> device_in m c -> i < E ->
  device_in m (owner_dev ks E i c) /\ dim_owns m ks E (owner_dev ks E i c) i = true.
Proof.
  intros ks E i c Hm. revert E i c.
  induction ks as [|k ks IH]; intros E i c Hwf Hnd Hc Hi; simpl.
  - split; [exact Hc | apply Nat.ltb_lt; exact Hi].
  - simpl in Hwf. apply andb_true_iff in Hwf. destruct Hwf as [Hk Hwf].
    unfold cut_wf in Hk. apply andb_true_iff in Hk. destruct Hk as [Hax HB].
    assert (Hax' : forall x, In x (cut_axes k) -> In x (mesh_axes m))
      by (intros x Hx; rewrite forallb_forall in Hax; apply memb_In, Hax, Hx).
    assert (Hok : cut_ok k (cut_parts m k)).
    { split; [apply shards_pos; assumption |]. destruct k; [exact I | apply Nat.leb_le; exact HB]. }
    simpl in Hnd. apply NoDup_app_inv in Hnd. destruct Hnd as (Hnd1 & Hnd2 & Hdis).
    pose proof (cut_owner_lt k _ E i Hok Hi) as Hj.
    destruct (cut_of_owned k _ E i Hok Hi) as [Hl _].
    set (j := cut_owner k (cut_parts m k) E i) in *.
    destruct (IH (cut_extent k (cut_parts m k) E j) (cut_local k (cut_parts m k) E j i)
                 (set_radix m (cut_axes k) j c) Hwf Hnd2) as [Hin Howns];
      [apply device_in_set_radix; assumption | exact Hl |].
    split; [exact Hin |].
    assert (Hch : cut_chunk m k (owner_dev ks (cut_extent k (cut_parts m k) E j)
                   (cut_local k (cut_parts m k) E j i) (set_radix m (cut_axes k) j c)) = j).
    { unfold cut_chunk. rewrite (radix_ext m _ (set_radix m (cut_axes k) j c)).
      - apply radix_set_radix; assumption.
      - intros y Hy. apply owner_dev_notin. apply Hdis. exact Hy. }
    rewrite Hch, Nat.eqb_refl, Howns. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
Qed.

End Dimension.

(** ** The holding: the product over dimensions *)

Definition cty_chunks_ok (m : mesh) (t : cty) (c : device) : Prop :=
  forall d, In d t -> chunks_ok m (fst d) c.

Lemma cty_chunks_ok_cons : forall m d t c, cty_chunks_ok m (d :: t) c ->
  chunks_ok m (fst d) c /\ cty_chunks_ok m t c.
Proof. intros m d t c H. split; [apply H; left; reflexivity | intros d' Hd; apply H; right; exact Hd]. Qed.

(** A well-formed type on a device of the mesh. *)
Lemma cty_wf_chunks_ok : forall m t c, mesh_wf m = true -> cty_wf m t = true -> device_in m c ->
  cty_chunks_ok m t c.
Proof.
  intros m t c Hm Ht Hc d Hd. unfold cty_wf in Ht. apply andb_true_iff in Ht. destruct Ht as [Ht _].
  rewrite forallb_forall in Ht. specialize (Ht d Hd). rewrite forallb_forall in Ht.
  apply Forall_forall. intros k Hk. specialize (Ht k Hk). unfold cut_wf in Ht.
  apply andb_true_iff in Ht. destruct Ht as [Hax HB].
  assert (Hax' : forall x, In x (cut_axes k) -> In x (mesh_axes m))
    by (intros x Hx; rewrite forallb_forall in Hax; apply memb_In, Hax, Hx).
  split; [split |].
  - apply shards_pos; assumption.
  - destruct k; [exact I | apply Nat.leb_le; exact HB].
  - apply radix_lt. intros x Hx. apply Hc, Hax', Hx.
Qed.

Theorem c_local_of_has : forall m t c i, cty_chunks_ok m t c -> c_has m t c i = true ->
  in_box (c_shape m t c) (c_local m t c i) /\ c_global m t c (c_local m t c i) = i.
Proof.
  intros m t c. induction t as [|d t IH]; intros [|x i] Hok H; simpl in H |- *; try discriminate.
  - split; [exact I | reflexivity].
  - apply cty_chunks_ok_cons in Hok. destruct Hok as [Hd Hok].
    apply andb_true_iff in H. destruct H as [Hx H].
    destruct (dim_local_of_owned m _ _ c x Hd Hx) as [H1 H2]. destruct (IH i Hok H) as [H3 H4].
    rewrite H2, H4. split; [split; assumption | reflexivity].
Qed.

Theorem c_global_has : forall m t c l, cty_chunks_ok m t c -> in_box (c_shape m t c) l ->
  c_has m t c (c_global m t c l) = true /\ c_local m t c (c_global m t c l) = l.
Proof.
  intros m t c. induction t as [|d t IH]; intros [|y l] Hok H; simpl in H |- *; try contradiction.
  - split; reflexivity.
  - apply cty_chunks_ok_cons in Hok. destruct Hok as [Hd Hok]. destruct H as [Hy H].
    destruct (dim_global_owned m _ _ c y Hd Hy) as [H1 H2]. destruct (IH l Hok H) as [H3 H4].
    rewrite H1, H2, H3, H4. split; reflexivity.
Qed.

(** The holding is the product of the dimensions' intervals. *)
Theorem c_has_intervals : forall m t c i, cty_chunks_ok m t c ->
  c_has m t c i = true <-> Forall2 (fun x ivs => In x (intervals_elems ivs)) i (c_intervals m t c).
Proof.
  intros m t c. induction t as [|d t IH]; intros [|x i] Hok; simpl.
  - split; constructor.
  - split; [discriminate | intros H; inversion H].
  - split; [discriminate | intros H; inversion H].
  - apply cty_chunks_ok_cons in Hok. destruct Hok as [Hd Hok].
    rewrite andb_true_iff, IH by exact Hok. rewrite <- (dim_intervals_owned m _ _ c x Hd). split.
    + intros [H1 H2]. constructor; assumption.
    + intros H. inversion H. subst. split; assumption.
Qed.

(** ** Part 2 is the one-cut ceil-block case *)

Lemma one_cut_owns : forall m d c x, 1 <= shards m d ->
  dim_owns m [Block (fst d)] (snd d) c x = (x <? snd d) && (x / block_size m d =? radix m c (fst d)).
Proof.
  intros m d c x Hd.
  change (dim_owns m [Block (fst d)] (snd d) c x)
    with ((x <? snd d) && (cut_owner (Block (fst d)) (shards m d) (snd d) x =? radix m c (fst d))
          && (cut_local (Block (fst d)) (shards m d) (snd d) (radix m c (fst d)) x
              <? cut_extent (Block (fst d)) (shards m d) (snd d) (radix m c (fst d)))).
  destruct (Nat.ltb_spec x (snd d)) as [Hx | Hx]; [| reflexivity].
  destruct (Nat.eqb_spec (cut_owner (Block (fst d)) (shards m d) (snd d) x) (radix m c (fst d)))
    as [Hj | Hj]; simpl in Hj |- *; unfold block_size; rewrite ?Hj.
  - destruct (block_of_owned (fst d) _ (snd d) Hd x Hx) as [Hl _]. simpl in Hl. rewrite Hj in Hl.
    rewrite Nat.eqb_refl. apply Nat.ltb_lt. exact Hl.
  - apply Nat.eqb_neq in Hj. rewrite Hj. reflexivity.
Qed.

Theorem one_cut_agrees : forall m t c, (forall d, In d t -> 1 <= shards m d) ->
  c_shape m (cty_of_ty t) c = box_shape (dev_box m t c)
  /\ (forall i, c_has m (cty_of_ty t) c i = box_has (dev_box m t c) i)
  /\ (forall i, c_local m (cty_of_ty t) c i = box_local (dev_box m t c) i)
  /\ (forall l, c_global m (cty_of_ty t) c l = box_global (dev_box m t c) l).
Proof.
  intros m t c HP. induction t as [|d t IH]; [repeat split; intros [|x i]; reflexivity |].
  destruct IH as (IH1 & IH2 & IH3 & IH4); [intros d' Hd; apply HP; right; exact Hd |].
  assert (Hd : 1 <= shards m d) by (apply HP; left; reflexivity).
  repeat split.
  - unfold c_shape, cty_of_ty, dev_box, box_shape in *. simpl. rewrite IH1. reflexivity.
  - intros [|x i]; [reflexivity |].
    change (dev_box m (d :: t) c) with (dim_block m d c :: dev_box m t c).
    change (c_has m (cty_of_ty (d :: t)) c (x :: i))
      with (dim_owns m [Block (fst d)] (snd d) c x && c_has m (cty_of_ty t) c i).
    pose proof (dim_block_has m d c x Hd) as Hb. destruct (dim_block m d c) as [lo n].
    simpl box_has. rewrite IH2, Hb, one_cut_owns by exact Hd. reflexivity.
  - intros [|x i]; [reflexivity |]. simpl. rewrite IH3. reflexivity.
  - intros [|y l]; [reflexivity |]. simpl. rewrite IH4. reflexivity.
Qed.

(** ** Every index of the array has an owner on the mesh *)

(** A device that owns [i]: in every dimension, the part of every cut that holds its coordinate. *)
Fixpoint cover_cdev (m : mesh) (t : cty) (i : list nat) (c : device) : device :=
  match t, i with
  | d :: t', x :: i' => cover_cdev m t' i' (owner_dev m (fst d) (snd d) x c)
  | _, _ => c
  end.

Lemma cover_cdev_notin : forall m t i c y, ~ In y (cty_axes t) -> cover_cdev m t i c y = c y.
Proof.
  intros m t. induction t as [|d t IH]; intros [|x i] c y Hy; simpl; auto.
  simpl in Hy. rewrite IH by (intros H; apply Hy, in_or_app; right; exact H).
  apply owner_dev_notin. intros H. apply Hy, in_or_app. left. exact H.
Qed.

Lemma c_has_ext : forall m t c c' i, (forall x, In x (cty_axes t) -> c x = c' x) ->
  c_has m t c i = c_has m t c' i.
Proof.
  intros m t c c'. induction t as [|d t IH]; intros [|x i] H; simpl; try reflexivity.
  rewrite (dim_owns_replicated m _ _ c c'), IH; [reflexivity | |];
    intros y Hy; apply H; simpl; apply in_or_app; [right | left]; exact Hy.
Qed.

Lemma c_has_range : forall m t c i, c_has m t c i = true -> Forall2 (fun x n => x < n) i (map snd t).
Proof.
  intros m t c. induction t as [|d t IH]; intros [|x i] H; simpl in H; try discriminate; constructor.
  - apply andb_true_iff in H. eapply dim_owns_lt. apply H.
  - apply IH. apply andb_true_iff in H. apply H.
Qed.

Theorem cuts_covered : forall m t i c, mesh_wf m = true -> cty_wf m t = true -> device_in m c ->
  Forall2 (fun x n => x < n) i (map snd t) ->
  device_in m (cover_cdev m t i c) /\ c_has m t (cover_cdev m t i c) i = true.
Proof.
  intros m t i c Hm Ht. unfold cty_wf in Ht. apply andb_true_iff in Ht. destruct Ht as [Hwf Hnd].
  apply nodupb_NoDup in Hnd. revert i c Hwf Hnd.
  induction t as [|d t IH]; intros [|x i] c Hwf Hnd Hc Hr; inversion Hr; subst; simpl.
  - split; [exact Hc | reflexivity].
  - simpl in Hwf, Hnd. apply andb_true_iff in Hwf. destruct Hwf as [Hd Hwf].
    apply NoDup_app_inv in Hnd. destruct Hnd as (Hnd1 & Hnd2 & Hdis).
    destruct (dim_owner_exists m (fst d) (snd d) x c Hm Hd Hnd1 Hc) as [Hc' Hown]; [assumption |].
    destruct (IH i _ Hwf Hnd2 Hc') as [Hin Hhas]; [assumption |].
    split; [exact Hin |]. rewrite Hhas, andb_true_r.
    rewrite (dim_owns_replicated m _ _ _ (owner_dev m (fst d) (snd d) x c)); [exact Hown |].
    intros y Hy. apply cover_cdev_notin. apply Hdis. exact Hy.
Qed.
