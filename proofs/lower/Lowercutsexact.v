(** * The region messages receive exactly the lower bound; the lower bound
    and the live bytes over holdings.

    Stated over the messages themselves, not over the element-level wire:
    - [region_recv_exact]: the global cells rank [r] receives
      ([region_recv_cells]: the boxes of [region_recvs], before they are
      read in [r]'s target array) are pairwise disjoint, their elements are
      exactly the indices [r]'s target holds and its source does not, and
      [region_recv_count], the sum of their sizes, is the number of those
      indices; [region_recv_busiest_exact] and [region_recv_total_exact]:
      the maximum and the sum over world ranks that [redist plan] prints.
    - [hlower_bound_sound]: over any two holdings, any sequence of steps that
      reads only existing elements and moves every source state to its
      target makes rank [r] receive at least those indices; Part 2's
      [lower_bound_sound] is its case of boxes ([lower_bound_sound_of_holdings]),
      and the region exchange attains it ([region_exchange_optimal]).
    - [region_boxes_inside]: every box a rank sends, receives or copies lies
      in its source or its target local array, so the region exchange lives
      in those two arrays ([region_live_elems], what the runtime allocates:
      MPI derived datatypes read and write them in place).
    - [region_writes_exact]: the boxes a rank's copies and receives write
      cover its target array, each position once.
    - [one_cut_region_recv], [region_sender_replica]: on layouts of one
      ceil-block cut per dimension the region messages receive Part 2's
      missing elements, [recv_lower_bound] of them; any holder choice of the
      exchange takes each element from a replica of the rank the region
      messages take it from, and from that very rank when the source has no
      replicas. *)

From Coq Require Import List Arith Lia Bool Permutation Sorting.
Import ListNotations.
From Redist Require Import Steps Model Radix Trafficproof Layout Layoutproof Exchange Exchangeproof Lowerbound.
From Redist Require Import Cuts Cutsproof Holding Lowercuts Lowercutsproof.

(** ** Lists without repeats *)

Lemma NoDup_app_disjoint : forall A (l1 l2 : list A), NoDup l1 -> NoDup l2 ->
  (forall x, In x l1 -> ~ In x l2) -> NoDup (l1 ++ l2).
Proof.
  intros A l1 l2 H1 H2 Hd. induction H1 as [|x l1 Hx H1 IH]; [exact H2 |].
  simpl. constructor.
  - intros H. apply in_app_or in H. destruct H as [H | H]; [exact (Hx H) | exact (Hd x (or_introl eq_refl) H)].
  - apply IH. intros y Hy. apply Hd. right. exact Hy.
Qed.

Lemma NoDup_app_parts : forall A (l1 l2 : list A), NoDup (l1 ++ l2) ->
  NoDup l2 /\ forall x, In x l1 -> ~ In x l2.
Proof.
  intros A l1 l2 H. induction l1 as [|y l1 IH]; [split; [exact H | intros _ []] |].
  simpl in H. inversion H as [|? ? Hy H']. subst. destruct (IH H') as [H2 Hd]. split; [exact H2 |].
  intros x [<- | Hx] Hx2; [apply Hy, in_or_app; right; exact Hx2 | exact (Hd x Hx Hx2)].
Qed.

(** If [h] maps what [f a] lists into [g a] and [flat_map g] has no repeats, neither has [flat_map f]. *)
Lemma NoDup_flat_map_into : forall A B C (f : A -> list B) (g : A -> list C) (h : B -> C) l,
  NoDup (flat_map g l) -> (forall a, In a l -> NoDup (f a)) ->
  (forall a y, In a l -> In y (f a) -> In (h y) (g a)) -> NoDup (flat_map f l).
Proof.
  intros A B C f g h l. induction l as [|a l IH]; intros Hg Hf Hh; simpl; [constructor |].
  simpl in Hg. destruct (NoDup_app_parts _ _ _ Hg) as [Hg' Hd]. apply NoDup_app_disjoint.
  - apply Hf; left; reflexivity.
  - apply IH; [exact Hg' | intros; apply Hf; right; assumption | intros; apply Hh; [right |]; assumption].
  - intros y Hy Hy'. apply in_flat_map in Hy'. destruct Hy' as (a' & Ha' & Hy').
    apply (Hd (h y) (Hh a y (or_introl eq_refl) Hy)).
    apply in_flat_map. exists a'. split; [exact Ha' | apply Hh; [right; exact Ha' | exact Hy']].
Qed.

(** Lists of distinct keys whose images meet only at the same key. *)
Lemma NoDup_flat_map_apart : forall A B (f : A -> list B) l, NoDup l ->
  (forall a, In a l -> NoDup (f a)) ->
  (forall a a' y, In a l -> In a' l -> In y (f a) -> In y (f a') -> a = a') -> NoDup (flat_map f l).
Proof.
  intros A B f l. induction l as [|a l IH]; intros Hl Hf Hd; simpl; [constructor |].
  inversion Hl as [|? ? Ha Hl']. subst. apply NoDup_app_disjoint.
  - apply Hf; left; reflexivity.
  - apply IH; [exact Hl' | intros; apply Hf; right; assumption |].
    intros b b' y Hb Hb'. apply Hd; right; assumption.
  - intros y Hy Hy'. apply in_flat_map in Hy'. destruct Hy' as (a' & Ha' & Hy').
    assert (E : a = a') by (apply (Hd a a' y); [left; reflexivity | right; exact Ha' | exact Hy | exact Hy']).
    subst a'. exact (Ha Ha').
Qed.

Lemma NoDup_map_cons : forall (x : nat) R, NoDup R -> NoDup (map (cons x) R).
Proof.
  intros x R H. induction H as [|y R Hy H IH]; simpl; constructor; [| exact IH].
  intros Hin. apply in_map_iff in Hin. destruct Hin as (z & E & Hz). injection E as ->. exact (Hy Hz).
Qed.

Lemma NoDup_cons_product : forall (X : list nat) (R : list (list nat)), NoDup X -> NoDup R -> NoDup (flat_map (fun x => map (cons x) R) X).
Proof.
  intros X R HX HR. apply NoDup_flat_map_apart; [exact HX | intros; apply NoDup_map_cons, HR |].
  intros a a' y _ _ H H'. apply in_map_iff in H, H'. destruct H as (z & <- & _). destruct H' as (z' & E & _).
  injection E as ->. reflexivity.
Qed.

Lemma flat_map_flat_map : forall A B C (f : B -> list C) (g : A -> list B) l,
  flat_map f (flat_map g l) = flat_map (fun x => flat_map f (g x)) l.
Proof. intros. induction l as [|a l IH]; simpl; [reflexivity |]. rewrite flat_map_app, IH. reflexivity. Qed.

Lemma flat_map_of_map : forall A B C (f : B -> list C) (g : A -> B) l,
  flat_map f (map g l) = flat_map (fun x => f (g x)) l.
Proof. intros. induction l as [|a l IH]; simpl; [reflexivity |]. rewrite IH. reflexivity. Qed.

Lemma StronglySorted_lt_NoDup : forall l, StronglySorted lt l -> NoDup l.
Proof.
  intros l H. induction H as [|a l H IH Hf]; constructor; [| exact IH].
  intros Hin. rewrite Forall_forall in Hf. specialize (Hf a Hin). lia.
Qed.

(** ** The elements of a global box *)

(** Row-major, as [box_indices] lists a local array's positions. *)
Fixpoint lbox_elems (b : lbox) : list (list nat) :=
  match b with
  | [] => [[]]
  | iv :: b' => flat_map (fun x => map (cons x) (lbox_elems b')) (seq (fst iv) (snd iv))
  end.

Lemma length_cons_product : forall (X : list nat) (R : list (list nat)),
  length (flat_map (fun x => map (cons x) R) X) = length X * length R.
Proof. intros X R. induction X as [|x X IH]; simpl; [reflexivity |]. rewrite app_length, map_length, IH. reflexivity. Qed.

Lemma lbox_elems_length : forall b, length (lbox_elems b) = lbox_size b.
Proof.
  induction b as [|iv b IH]; simpl; [reflexivity |]. rewrite length_cons_product, seq_length, IH. reflexivity.
Qed.

Lemma lbox_elems_NoDup : forall b, NoDup (lbox_elems b).
Proof.
  induction b as [|iv b IH]; simpl; [repeat constructor; intros [] |]. apply NoDup_cons_product; [apply seq_NoDup | exact IH].
Qed.

Lemma in_cons_product : forall (X : list nat) (R : list (list nat)) (i : list nat),
  In i (flat_map (fun x => map (cons x) R) X) <-> exists x i', i = x :: i' /\ In x X /\ In i' R.
Proof.
  intros X R i. rewrite in_flat_map. split.
  - intros (x & Hx & H). apply in_map_iff in H. destruct H as (i' & <- & Hi'). exists x, i'. auto.
  - intros (x & i' & -> & Hx & Hi'). exists x. split; [exact Hx | apply in_map; exact Hi'].
Qed.

Lemma in_lbox_elems : forall b i, In i (lbox_elems b) <-> in_lbox b i = true.
Proof.
  induction b as [|[o n] b IH]; intros i; simpl.
  - destruct i; split; [reflexivity | auto | intros [E | []]; discriminate | discriminate].
  - rewrite in_cons_product. split.
    + intros (x & i' & -> & Hx & Hi'). apply in_seq in Hx. apply IH in Hi'. rewrite Hi', andb_true_r.
      apply andb_true_iff. rewrite Nat.leb_le, Nat.ltb_lt. simpl in Hx. lia.
    + destruct i as [|x i']; [discriminate |]. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt.
      intros [[H1 H2] H3]. exists x, i'. split; [reflexivity |]. split; [apply in_seq; lia | apply IH; exact H3].
Qed.

Lemma lbox_size_extents : forall b b', map snd b = map snd b' -> lbox_size b = lbox_size b'.
Proof.
  induction b as [|iv b IH]; intros [|iv' b'] H; simpl in H; try discriminate; [reflexivity |].
  injection H as E H. simpl. rewrite E, (IH b' H). reflexivity.
Qed.

Lemma boxes_size_app : forall bs bs', boxes_size (bs ++ bs') = boxes_size bs + boxes_size bs'.
Proof. induction bs as [|b bs IH]; intros bs'; simpl; [reflexivity |]. rewrite IH. lia. Qed.

(** What a list of messages carries, counted box by box. *)
Lemma count_messages : forall (f : nat -> bool) (g : nat -> list lbox) qs,
  fold_right (fun m n => boxes_size (snd m) + n) 0 (flat_map (fun q => if f q then message q (g q) else []) qs)
  = boxes_size (flat_map (fun q => if f q then g q else []) qs).
Proof.
  intros f g qs. induction qs as [|q qs IH]; simpl; [reflexivity |].
  destruct (f q); [| exact IH]. destruct (g q) as [|b bs]; [exact IH |]. simpl.
  rewrite boxes_size_app, IH. lia.
Qed.

Lemma boxes_size_elems : forall bs, boxes_size bs = length (flat_map lbox_elems bs).
Proof. induction bs as [|b bs IH]; simpl; [reflexivity |]. rewrite app_length, lbox_elems_length, IH. reflexivity. Qed.

(** ** The elements of the cells two devices share *)

Lemma intervals_elems_nonempty : forall ivs,
  intervals_elems (filter (fun iv => negb (snd iv =? 0)) ivs) = intervals_elems ivs.
Proof.
  induction ivs as [|[a n] ivs IH]; simpl; [reflexivity |].
  destruct n; simpl; rewrite IH; reflexivity.
Qed.

Lemma in_seq_meet : forall a b x,
  In x (seq (fst (iv_meet a b)) (snd (iv_meet a b))) <-> In x (seq (fst a) (snd a)) /\ In x (seq (fst b) (snd b)).
Proof. intros [a n] [b k] x. unfold iv_meet. simpl. rewrite !in_seq. lia. Qed.

Lemma ivs_meet_elems : forall xs ys, intervals_elems (ivs_meet xs ys)
  = flat_map (fun a => flat_map (fun b => seq (fst (iv_meet a b)) (snd (iv_meet a b))) ys) xs.
Proof.
  intros xs ys. unfold ivs_meet. rewrite intervals_elems_nonempty. unfold intervals_elems.
  rewrite flat_map_flat_map. apply flat_map_ext. intros a. rewrite flat_map_of_map. reflexivity.
Qed.

Lemma in_ivs_meet_elems : forall xs ys x,
  In x (intervals_elems (ivs_meet xs ys)) <-> In x (intervals_elems xs) /\ In x (intervals_elems ys).
Proof.
  intros xs ys x. rewrite ivs_meet_elems. unfold intervals_elems. rewrite !in_flat_map. split.
  - intros (a & Ha & H). apply in_flat_map in H. destruct H as (b & Hb & H). apply in_seq_meet in H.
    split; [exists a | exists b]; tauto.
  - intros [(a & Ha & H1) (b & Hb & H2)]. exists a. split; [exact Ha |]. apply in_flat_map.
    exists b. split; [exact Hb | apply in_seq_meet; auto].
Qed.

Lemma ivs_meet_NoDup : forall xs ys, NoDup (intervals_elems xs) -> NoDup (intervals_elems ys) ->
  NoDup (intervals_elems (ivs_meet xs ys)).
Proof.
  intros xs ys Hx Hy. rewrite ivs_meet_elems.
  apply (NoDup_flat_map_into _ _ _ _ (fun a => seq (fst a) (snd a)) (fun x => x)); [exact Hx | |].
  - intros a _. apply (NoDup_flat_map_into _ _ _ _ (fun b => seq (fst b) (snd b)) (fun x => x)); [exact Hy | |].
    + intros b _. apply seq_NoDup.
    + intros b y _ H. apply in_seq_meet in H. apply H.
  - intros a y _ H. apply in_flat_map in H. destruct H as (b & _ & H). apply in_seq_meet in H. apply H.
Qed.

Lemma in_product_elems : forall ds i,
  In i (flat_map lbox_elems (product_boxes ds)) <-> Forall2 (fun x d => In x (intervals_elems d)) i ds.
Proof.
  induction ds as [|d ds IH]; intros i; simpl.
  - split; [intros [<- | []]; constructor | intros H; inversion H; left; reflexivity].
  - rewrite flat_map_flat_map. rewrite in_flat_map. split.
    + intros (iv & Hiv & H). rewrite flat_map_of_map in H. apply in_flat_map in H. destruct H as (b & Hb & H).
      simpl in H. apply in_cons_product in H. destruct H as (x & i' & -> & Hx & Hi'). constructor.
      * apply in_flat_map. exists iv. auto.
      * apply IH. apply in_flat_map. exists b. auto.
    + intros H. inversion H as [| x d' i' ds' Hx Hi']. subst. apply in_flat_map in Hx. destruct Hx as (iv & Hiv & Hx).
      apply IH, in_flat_map in Hi'. destruct Hi' as (b & Hb & Hi').
      exists iv. split; [exact Hiv |]. rewrite flat_map_of_map. apply in_flat_map. exists b. split; [exact Hb |].
      simpl. apply in_cons_product. exists x, i'. auto.
Qed.

Lemma product_elems_NoDup : forall ds, Forall (fun d => NoDup (intervals_elems d)) ds ->
  NoDup (flat_map lbox_elems (product_boxes ds)).
Proof.
  induction ds as [|d ds IH]; intros Hds; simpl; [repeat constructor; intros [] |].
  inversion Hds as [| ? ? Hd Hds']. subst. rewrite flat_map_flat_map.
  apply (NoDup_flat_map_into _ _ _ _ (fun iv => seq (fst iv) (snd iv)) (hd 0)); [exact Hd | |].
  - intros iv _. rewrite flat_map_of_map.
    apply (NoDup_flat_map_into _ _ _ _ lbox_elems (@tl nat)); [apply IH, Hds' | |].
    + intros b _. apply lbox_elems_NoDup.
    + intros b y _ H. simpl in H. apply in_cons_product in H. destruct H as (x & i' & -> & _ & H). exact H.
  - intros iv y _ H. rewrite flat_map_of_map in H. apply in_flat_map in H. destruct H as (b & _ & H).
    simpl in H. apply in_cons_product in H. destruct H as (x & i' & -> & H & _). exact H.
Qed.

Lemma Forall2_meet_dims : forall (i : list nat) xs ys, length xs = length ys ->
  Forall2 (fun x d => In x (intervals_elems d)) i (meet_dims xs ys)
  <-> Forall2 (fun x d => In x (intervals_elems d)) i xs /\ Forall2 (fun x d => In x (intervals_elems d)) i ys.
Proof.
  induction i as [|x i IH]; intros [|a xs] [|b ys] Hl; simpl in Hl; try discriminate.
  - simpl. split; [split; constructor | constructor].
  - split; [intros H; inversion H | intros [H _]; inversion H].
  - split; [intros H; inversion H | intros [H _]; inversion H].
  - change (meet_dims (a :: xs) (b :: ys)) with (ivs_meet a b :: meet_dims xs ys). split.
    + intros H. inversion H as [| ? ? ? ? Hx Hi]. subst. apply in_ivs_meet_elems in Hx.
      apply IH in Hi; [| lia]. split; constructor; tauto.
    + intros [H1 H2]. inversion H1. inversion H2. subst. constructor.
      * apply in_ivs_meet_elems. split; assumption.
      * apply IH; [lia | split; assumption].
Qed.

Lemma dim_intervals_NoDup : forall m ks E c, chunks_ok m ks c -> NoDup (intervals_elems (dim_intervals m ks E c)).
Proof. intros. apply StronglySorted_lt_NoDup, dim_intervals_sorted. assumption. Qed.

Lemma c_intervals_NoDup : forall m t c d, cty_chunks_ok m t c -> In d (c_intervals m t c) ->
  NoDup (intervals_elems d).
Proof.
  intros m t c d Hok Hd. unfold c_intervals in Hd. apply in_map_iff in Hd. destruct Hd as (dt & <- & Hdt).
  apply dim_intervals_NoDup, Hok, Hdt.
Qed.

(** The cells [cs] of [S] and [ct] of [T] share list, once each, the indices both hold. *)
Theorem device_cells_elems : forall S T cs ct,
  cty_chunks_ok (cl_m S) (cl_ty S) cs -> cty_chunks_ok (cl_m T) (cl_ty T) ct -> map snd (cl_ty S) = map snd (cl_ty T) ->
  NoDup (flat_map lbox_elems (device_cells S T cs ct))
  /\ forall i, In i (flat_map lbox_elems (device_cells S T cs ct))
               <-> c_has (cl_m S) (cl_ty S) cs i = true /\ c_has (cl_m T) (cl_ty T) ct i = true.
Proof.
  intros S T cs ct HS HT Hg. unfold device_cells.
  assert (Hl : length (c_intervals (cl_m S) (cl_ty S) cs) = length (c_intervals (cl_m T) (cl_ty T) ct)).
  { unfold c_intervals. rewrite !map_length. rewrite <- (map_length snd (cl_ty S)), Hg, map_length. reflexivity. }
  split.
  - apply product_elems_NoDup, Forall_forall. intros d Hd. unfold meet_dims in Hd. apply in_map_iff in Hd.
    destruct Hd as ([x y] & <- & Hxy). simpl. apply ivs_meet_NoDup.
    + eapply c_intervals_NoDup; [exact HS | eapply in_combine_l; exact Hxy].
    + eapply c_intervals_NoDup; [exact HT | eapply in_combine_r; exact Hxy].
  - intros i. rewrite in_product_elems, Forall2_meet_dims by exact Hl.
    rewrite (c_has_intervals _ _ _ _ HS), (c_has_intervals _ _ _ _ HT). reflexivity.
Qed.

(** ** Who sends which elements *)

Lemma cl_device_index : forall L w c, cl_device L w = Some c ->
  exists k, index_of w (pm_ranks (cl_mesh L)) = Some k /\ c = device_of_rank (cl_m L) k.
Proof.
  intros L w c H. unfold cl_device in H. destruct (index_of w (pm_ranks (cl_mesh L))) as [k|]; [| discriminate].
  injection H as <-. exists k. split; reflexivity.
Qed.

Section Exact.
Variables S T : clayout.
Hypothesis HS : clayout_wf S = true.
Hypothesis HT : clayout_wf T = true.
Hypothesis Hg : map snd (cl_ty S) = map snd (cl_ty T).

(** The global cells rank [r] receives, sender by sender, in the order of
    [region_recvs]: its [k]-th box from [p] is the [k]-th cell from [p] read
    in [r]'s target array. *)
Definition region_recv_cells (r : nat) : list lbox :=
  flat_map (fun p => if sends_to S p r then region_cells S T p r else []) (pm_ranks (cl_mesh S)).

Definition region_recv_elems (r : nat) : list (list nat) := flat_map lbox_elems (region_recv_cells r).

Let Okd : forall L w c, clayout_wf L = true -> cl_device L w = Some c -> cty_chunks_ok (cl_m L) (cl_ty L) c.
Proof. intros L w c HL H. exact (cl_device_in L w c HL H). Qed.

Lemma region_cells_elems : forall p r i, In i (flat_map lbox_elems (region_cells S T p r)) <->
  exists cs ct, cl_device S p = Some cs /\ cl_device T r = Some ct
    /\ c_has (cl_m S) (cl_ty S) cs i = true /\ c_has (cl_m T) (cl_ty T) ct i = true.
Proof.
  intros p r i. unfold region_cells.
  destruct (cl_device S p) as [cs|] eqn:Hcs; [destruct (cl_device T r) as [ct|] eqn:Hct |].
  - rewrite (proj2 (device_cells_elems S T cs ct (Okd S p cs HS Hcs) (Okd T r ct HT Hct) Hg)). split.
    + intros H. exists cs, ct. auto.
    + intros (cs' & ct' & E1 & E2 & H). injection E1 as <-. injection E2 as <-. exact H.
  - simpl. split; [intros [] | intros (cs' & ct' & _ & E & _); discriminate].
  - simpl. split; [intros [] | intros (cs' & ct' & E & _); discriminate].
Qed.

(** Two senders to [r] share no element: each is the first of its replicas,
    and ranks that hold one index are replicas. *)
Lemma senders_apart : forall p p' r i, sends_to S p r = true -> sends_to S p' r = true ->
  In i (flat_map lbox_elems (region_cells S T p r)) -> In i (flat_map lbox_elems (region_cells S T p' r)) -> p = p'.
Proof.
  intros p p' r i Hp Hp' Hi Hi'.
  apply region_cells_elems in Hi, Hi'. destruct Hi as (cs & ct & Hcs & _ & Hs & _). destruct Hi' as (cs' & ct' & Hcs' & _ & Hs' & _).
  destruct (cl_device_index _ _ _ Hcs) as (k & Hk & ->). destruct (cl_device_index _ _ _ Hcs') as (k' & Hk' & ->).
  unfold sends_to in Hp, Hp'. rewrite Hk in Hp. rewrite Hk' in Hp'.
  apply andb_true_iff in Hp, Hp'. destruct Hp as [Hp _]. destruct Hp' as [Hp' _].
  apply andb_true_iff in Hp, Hp'. destruct Hp as [_ Hlead]. destruct Hp' as [_ Hlead'].
  assert (Ek : k = k').
  { destruct (lt_eq_lt_dec k k') as [[Hlt | Heq] | Hlt]; [exfalso | exact Heq | exfalso].
    - unfold is_lead in Hlead'. rewrite forallb_forall in Hlead'.
      specialize (Hlead' k ltac:(apply in_seq; lia)). rewrite (has_same_parts _ _ _ _ i Hs Hs') in Hlead'. discriminate.
    - unfold is_lead in Hlead. rewrite forallb_forall in Hlead.
      specialize (Hlead k' ltac:(apply in_seq; lia)). rewrite (has_same_parts _ _ _ _ i Hs' Hs) in Hlead. discriminate. }
  subst k'. apply index_of_Some in Hk, Hk'. destruct Hk as [_ <-]. destruct Hk' as [_ <-]. reflexivity.
Qed.

(** A sender to [r] holds nothing [r]'s source holds. *)
Lemma sender_not_self : forall p r i, sends_to S p r = true -> In i (flat_map lbox_elems (region_cells S T p r)) ->
  hd_has (clayout_holding S) r i = false.
Proof.
  intros p r i Hp Hi. apply region_cells_elems in Hi. destruct Hi as (cs & ct & Hcs & _ & Hs & _).
  destruct (cl_device_index _ _ _ Hcs) as (k & Hk & ->). simpl.
  destruct (cl_device S r) as [c|] eqn:Hc; [| reflexivity].
  destruct (c_has (cl_m S) (cl_ty S) c i) eqn:E; [exfalso | reflexivity].
  unfold sends_to in Hp. rewrite Hk, Hc, (has_same_parts _ _ _ _ i E Hs), andb_false_r in Hp. discriminate.
Qed.

(** Every index [r]'s target holds and its source does not comes from a sender. *)
Lemma sender_exists : forall r i, hd_has (clayout_holding T) r i = true -> hd_has (clayout_holding S) r i = false ->
  exists p, In p (pm_ranks (cl_mesh S)) /\ sends_to S p r = true /\ In i (flat_map lbox_elems (region_cells S T p r)).
Proof.
  intros r i HTi HSi. simpl in HTi, HSi.
  destruct (cl_device T r) as [ct|] eqn:Hct; [| discriminate].
  assert (Hr : Forall2 (fun x n => x < n) i (map snd (cl_ty S))) by (rewrite Hg; eapply c_has_range; exact HTi).
  pose proof (cover_rank_holds S i HS Hr) as Hcov. simpl in Hcov.
  destruct (cl_device S (cover_rank S i)) as [c0|] eqn:H0; [| discriminate].
  destruct (cl_device_index _ _ _ H0) as (k0 & Hk0 & ->).
  destruct (lead_exists S i k0 Hcov) as (k & Hk & Hlead & Hhas).
  apply index_of_Some in Hk0. destruct Hk0 as [Hk0 _].
  pose proof HS as HS'. unfold clayout_wf, pmesh_wf in HS'.
  rewrite !andb_true_iff, ranks_distinct_NoDup in HS'. destruct HS' as [[[_ _] Hnd] _].
  set (p := nth k (pm_ranks (cl_mesh S)) 0).
  assert (Hidx : index_of p (pm_ranks (cl_mesh S)) = Some k) by (apply index_of_nth; [exact Hnd | lia]).
  assert (Hps : cl_device S p = Some (device_of_rank (cl_m S) k)) by (unfold cl_device; rewrite Hidx; reflexivity).
  exists p. split; [apply nth_In; lia |]. split.
  - unfold sends_to. rewrite Hidx, Hlead. destruct (Nat.eqb_spec p r) as [Epr | _].
    + subst r. rewrite Hps, Hhas in HSi. discriminate.
    + simpl. destruct (cl_device S r) as [c|] eqn:Hc; [| reflexivity].
      apply negb_true_iff. destruct (same_parts (cl_m S) (cl_ty S) c (device_of_rank (cl_m S) k)) eqn:Es; [| reflexivity].
      rewrite <- (same_parts_has _ _ _ _ i Es), HSi in Hhas. discriminate.
  - apply region_cells_elems. exists (device_of_rank (cl_m S) k), ct. auto.
Qed.

(** What rank [r] receives, over its messages: the cells are pairwise
    disjoint (no element listed twice) and hold exactly the indices its
    target holds and its source does not; [region_recv_count], the sum of
    the sizes of the boxes of [region_recvs], is their number. *)
Theorem region_recv_exact : forall r,
  NoDup (region_recv_elems r)
  /\ (forall i, In i (region_recv_elems r) <->
       hd_has (clayout_holding T) r i = true /\ hd_has (clayout_holding S) r i = false)
  /\ region_recv_count S T r = length (hmissing (clayout_holding S) (clayout_holding T) r).
Proof.
  intros r.
  assert (Hnd : NoDup (region_recv_elems r)).
  { unfold region_recv_elems, region_recv_cells. rewrite flat_map_flat_map. apply NoDup_flat_map_apart.
    - pose proof HS as HS'. unfold clayout_wf, pmesh_wf in HS'.
      rewrite !andb_true_iff, ranks_distinct_NoDup in HS'. tauto.
    - intros p _. destruct (sends_to S p r); [| constructor]. unfold region_cells.
      destruct (cl_device S p) as [cs|] eqn:Hcs; [destruct (cl_device T r) as [ct|] eqn:Hct |]; try constructor.
      apply (device_cells_elems S T cs ct (Okd S p cs HS Hcs) (Okd T r ct HT Hct) Hg).
    - intros p p' i _ _ Hi Hi'. destruct (sends_to S p r) eqn:Ep; [| destruct Hi].
      destruct (sends_to S p' r) eqn:Ep'; [| destruct Hi']. exact (senders_apart p p' r i Ep Ep' Hi Hi'). }
  assert (Hin : forall i, In i (region_recv_elems r) <->
                hd_has (clayout_holding T) r i = true /\ hd_has (clayout_holding S) r i = false).
  { intros i. unfold region_recv_elems, region_recv_cells. rewrite flat_map_flat_map, in_flat_map. split.
    - intros (p & _ & H). destruct (sends_to S p r) eqn:Ep; [| destruct H].
      split; [| exact (sender_not_self p r i Ep H)].
      apply region_cells_elems in H. destruct H as (cs & ct & _ & Hct & _ & Ht). simpl. rewrite Hct. exact Ht.
    - intros [H1 H2]. destruct (sender_exists r i H1 H2) as (p & Hp & Ep & H). exists p. rewrite Ep. auto. }
  split; [exact Hnd |]. split; [exact Hin |].
  assert (Hperm : Permutation (region_recv_elems r) (hmissing (clayout_holding S) (clayout_holding T) r)).
  { destruct (hmissing_spec (clayout_holding S) (clayout_holding T) r (cuts_holding_laws T HT)) as [Hm Hmi].
    apply NoDup_Permutation; [exact Hnd | exact Hm |]. intros i. rewrite Hin, Hmi. reflexivity. }
  rewrite <- (Permutation_length Hperm). unfold region_recv_elems. rewrite <- boxes_size_elems.
  unfold region_recv_count, region_recvs, region_recv_cells. rewrite count_messages.
  induction (pm_ranks (cl_mesh S)) as [|p ps IH]; [reflexivity |]. simpl.
  rewrite !boxes_size_app, IH. f_equal. destruct (sends_to S p r); [| reflexivity].
  unfold region_cells. destruct (cl_device S p) as [cs|]; [| reflexivity].
  unfold tgt_local. destruct (cl_device T r) as [ct|]; [| rewrite map_id; reflexivity].
  pose proof (cell_length S T cs ct) as Hlen.
  induction (device_cells S T cs ct) as [|b bs IHb]; [reflexivity |]. simpl.
  rewrite IHb by (intros b' _ Hb'; apply Hlen; [exact Hg | right; exact Hb']). f_equal.
  apply lbox_size_extents. apply localize_extents. destruct (Hlen b Hg (or_introl eq_refl)). lia.
Qed.

End Exact.

(** ** The figures [redist plan] prints: the busiest rank and the total *)

(** The maximum and the sum of a per-rank figure over world ranks [0 .. world-1]. *)
Definition ranks_max (f : nat -> nat) (world : nat) : nat := fold_right (fun r n => Nat.max (f r) n) 0 (seq 0 world).
Definition ranks_sum (f : nat -> nat) (world : nat) : nat := fold_right (fun r n => f r + n) 0 (seq 0 world).

Lemma ranks_fold_ext : forall (op : nat -> nat -> nat) (f f' : nat -> nat) ws,
  (forall r, f r = f' r) -> fold_right (fun r n => op (f r) n) 0 ws = fold_right (fun r n => op (f' r) n) 0 ws.
Proof. intros op f f' ws H. induction ws as [|w ws IH]; simpl; [reflexivity |]. rewrite H, IH. reflexivity. Qed.

Corollary region_recv_busiest_exact : forall S T world,
  clayout_wf S = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  ranks_max (region_recv_count S T) world
  = ranks_max (fun r => length (hmissing (clayout_holding S) (clayout_holding T) r)) world.
Proof.
  intros S T world HS HT Hg. apply ranks_fold_ext. intros r. apply (region_recv_exact S T HS HT Hg r).
Qed.

Corollary region_recv_total_exact : forall S T world,
  clayout_wf S = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  ranks_sum (region_recv_count S T) world
  = ranks_sum (fun r => length (hmissing (clayout_holding S) (clayout_holding T) r)) world.
Proof.
  intros S T world HS HT Hg. apply ranks_fold_ext. intros r. apply (region_recv_exact S T HS HT Hg r).
Qed.

(** ** The lower bound over holdings *)

(** The initial state whose elements are their own global indices. *)
Definition hlabels (H : holding) : state (list nat) := fun r l => hd_global H r l.

Theorem hlower_bound_sound : forall S T ms r,
  holding_laws S -> holding_laws T ->
  moves_valid (hd_shape S) ms ->
  final_shapes (hd_shape S) ms r = hd_shape T r ->
  (forall A (g : list nat -> A) (st : state A), hd_holds S g st -> hd_holds T g (run_moves ms st)) ->
  length (hmissing S T r) <= moves_received ms r.
Proof.
  intros S T ms r LS LT Hv Hfin Hcorrect.
  set (inv := match hd_shape S r with Some s => map (hd_global S r) (box_indices s) | None => [] end).
  assert (Hinv : forall s l, hd_shape S r = Some s -> in_box s l -> In (hlabels S r l) inv).
  { intros s l Hs Hl. unfold inv, hlabels. rewrite Hs. apply in_map, in_box_indices, Hl. }
  assert (Hend : hd_holds T (fun i => i) (run_moves ms (hlabels S))).
  { apply Hcorrect. intros w s _ l _. reflexivity. }
  rewrite <- (arrivals_length _ ms (hlabels S) r). apply NoDup_incl_length.
  - apply (hmissing_spec S T r LT).
  - intros i Hi. pose proof Hi as Hi'. apply (hmissing_spec S T r LT) in Hi'. destruct Hi' as [_ HSi].
    unfold hmissing in Hi. destruct (hd_shape T r) as [s|] eqn:Hs; [| destruct Hi].
    apply filter_In in Hi. destruct Hi as [Hi _]. apply in_map_iff in Hi. destruct Hi as (l & <- & Hl).
    apply in_box_indices in Hl. rewrite <- Hs in Hfin.
    pose proof (trace_back _ ms _ (hlabels S) inv r Hv Hinv s l ltac:(rewrite Hfin; exact Hs) Hl) as Htr.
    rewrite (Hend r s Hs l Hl) in Htr. apply in_app_or in Htr. destruct Htr as [Hin | Hin]; [| exact Hin].
    exfalso. unfold inv in Hin. destruct (hd_shape S r) as [ss|] eqn:Hss; [| destruct Hin].
    apply in_map_iff in Hin. destruct Hin as (l' & E & Hl'). apply in_box_indices in Hl'.
    destruct (proj1 LS r ss l' Hss Hl') as [Hhas _]. rewrite E, HSi in Hhas. discriminate.
Qed.

(** Part 2's bound is the case of boxes. *)
Corollary lower_bound_sound_of_holdings : forall S T ms r,
  moves_valid (pl_shapes S) ms ->
  final_shapes (pl_shapes S) ms r = pl_shapes T r ->
  (forall A (g : list nat -> A) (st : state A), pl_holds S g st -> pl_holds T g (run_moves ms st)) ->
  length (missing S T r) <= moves_received ms r.
Proof.
  intros S T ms r Hv Hfin Hc. rewrite missing_holdings.
  apply hlower_bound_sound; [apply layout_holding_laws | apply layout_holding_laws | exact Hv | exact Hfin |].
  intros A g st Hst. apply pl_holds_holding, Hc, pl_holds_holding, Hst.
Qed.

(** Between layouts of composed cuts the region messages receive the bound,
    and no valid sequence of steps that moves every source state to its
    target receives less on any rank. *)
Theorem region_exchange_optimal : forall S T r,
  clayout_wf S = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  region_recv_count S T r = length (hmissing (clayout_holding S) (clayout_holding T) r)
  /\ forall ms, moves_valid (hd_shape (clayout_holding S)) ms ->
     final_shapes (hd_shape (clayout_holding S)) ms r = hd_shape (clayout_holding T) r ->
     (forall A (g : list nat -> A) st, hd_holds (clayout_holding S) g st ->
        hd_holds (clayout_holding T) g (run_moves ms st)) ->
     region_recv_count S T r <= moves_received ms r.
Proof.
  intros S T r HS HT Hg. destruct (region_recv_exact S T HS HT Hg r) as (_ & _ & E). split; [exact E |].
  intros ms Hv Hfin Hc. rewrite E. apply hlower_bound_sound; try assumption; apply cuts_holding_laws; assumption.
Qed.

(** ** Live bytes: the region exchange lives in the two local arrays *)

(** The elements of world rank [w]'s local array in [L] (none outside its mesh). *)
Definition cl_local_elems (L : clayout) (w : nat) : nat :=
  match cl_device L w with Some c => prod (c_shape (cl_m L) (cl_ty L) c) | None => 0 end.

(** Rank [r]'s live elements during the region exchange (its live bytes
    are these times the element size): its source and target local arrays.
    Nothing else is allocated: receives land in the target array and sends
    read the source array through MPI derived datatypes
    (runtime/src/region_exchange.cpp), copies go from one to the other
    ([region_boxes_inside]). *)
Definition region_live_elems (S T : clayout) (r : nat) : nat := cl_local_elems S r + cl_local_elems T r.

(** A global interval inside a held interval reads, in the local array, positions inside it. *)
Lemma dim_sub_run_in : forall m ks E c a n lo k y, chunks_ok m ks c ->
  In (a, n) (dim_intervals m ks E c) -> a <= lo -> lo + k <= a + n ->
  dim_local m ks E c lo <= y < dim_local m ks E c lo + k -> y < dim_extent m ks E c.
Proof.
  intros m ks E c a n lo k y Hok Hin H1 H2 Hy.
  destruct (interval_run m ks E c a n (lo - a) Hok Hin ltac:(lia)) as [_ Hlo].
  replace (a + (lo - a)) with lo in Hlo by lia.
  set (t := y - dim_local m ks E c lo).
  destruct (interval_run m ks E c a n (lo - a + t) Hok Hin ltac:(unfold t; lia)) as [Ho Hl].
  destruct (dim_local_of_owned m ks E c _ Hok Ho) as [Hlt _]. unfold t in *. lia.
Qed.

Definition inside_interval (iv : nat * nat) (ivs : list (nat * nat)) : Prop :=
  exists a n, In (a, n) ivs /\ a <= fst iv /\ fst iv + snd iv <= a + n.

Lemma localize_inside : forall m t c b l, cty_chunks_ok m t c ->
  Forall2 inside_interval b (c_intervals m t c) -> in_lbox (localize m t c b) l = true ->
  in_box (c_shape m t c) l.
Proof.
  induction t as [|d t IH]; intros c b l Hok Hb Hl.
  - inversion Hb. subst. destruct l; [exact I | discriminate].
  - inversion Hb as [| iv ivs b' ds Hiv Hb']. subst. destruct l as [|y l]; [discriminate |].
    apply cty_chunks_ok_cons in Hok. destruct Hok as [Hd Hok].
    simpl in Hl. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt in Hl. destruct Hl as [[Hy1 Hy2] Hl].
    destruct Hiv as (a & n & Hin & H1 & H2). split.
    + eapply dim_sub_run_in; [exact Hd | exact Hin | exact H1 | exact H2 | split; eassumption].
    + apply (IH c b' l Hok Hb' Hl).
Qed.

Lemma cells_inside : forall XS YS b, length XS = length YS -> In b (product_boxes (meet_dims XS YS)) ->
  Forall2 inside_interval b XS /\ Forall2 inside_interval b YS.
Proof.
  induction XS as [|x XS IH]; intros [|y YS] b Hl Hb; simpl in Hl; try discriminate.
  - destruct Hb as [<- | []]. split; constructor.
  - change (meet_dims (x :: XS) (y :: YS)) with (ivs_meet x y :: meet_dims XS YS) in Hb.
    apply in_product_boxes in Hb. destruct Hb as (iv & b' & -> & Hiv & Hb').
    destruct (IH YS b' ltac:(lia) Hb') as [H1 H2].
    destruct (in_ivs_meet _ _ _ Hiv) as ([a n] & [a' n'] & Ha & Ha' & -> & Hn). unfold iv_meet in *. simpl in *.
    split; constructor; try assumption.
    + exists a, n. simpl. split; [exact Ha | lia].
    + exists a', n'. simpl. split; [exact Ha' | lia].
Qed.

Section Inside.
Variables S T : clayout.
Hypothesis HS : clayout_wf S = true.
Hypothesis HT : clayout_wf T = true.
Hypothesis Hg : map snd (cl_ty S) = map snd (cl_ty T).

Definition in_source (r : nat) (l : list nat) : Prop :=
  exists cs, cl_device S r = Some cs /\ in_box (c_shape (cl_m S) (cl_ty S) cs) l.
Definition in_target (r : nat) (l : list nat) : Prop :=
  exists ct, cl_device T r = Some ct /\ in_box (c_shape (cl_m T) (cl_ty T) ct) l.

Lemma cell_sides : forall s w b, In b (region_cells S T s w) ->
  (forall l, in_lbox (src_local S s b) l = true -> in_source s l)
  /\ (forall l, in_lbox (tgt_local T w b) l = true -> in_target w l).
Proof.
  intros s w b Hb. unfold region_cells in Hb.
  destruct (cl_device S s) as [cs|] eqn:Hcs; [| destruct Hb]. destruct (cl_device T w) as [ct|] eqn:Hct; [| destruct Hb].
  assert (Hl : length (c_intervals (cl_m S) (cl_ty S) cs) = length (c_intervals (cl_m T) (cl_ty T) ct)).
  { unfold c_intervals. rewrite !map_length. rewrite <- (map_length snd (cl_ty S)), Hg, map_length. reflexivity. }
  destruct (cells_inside _ _ b Hl Hb) as [H1 H2]. unfold src_local, tgt_local. rewrite Hcs, Hct. split.
  - intros l H. exists cs. split; [exact Hcs |]. eapply localize_inside; [exact (cl_device_in S s cs HS Hcs) | exact H1 | exact H].
  - intros l H. exists ct. split; [exact Hct |]. eapply localize_inside; [exact (cl_device_in T w ct HT Hct) | exact H2 | exact H].
Qed.

Lemma in_messages : forall (f : nat -> bool) (g : nat -> list lbox) qs p bs,
  In (p, bs) (flat_map (fun q => if f q then message q (g q) else []) qs) -> f p = true /\ bs = g p.
Proof.
  intros f g qs p bs H. apply in_flat_map in H. destruct H as (q & _ & H). destruct (f q) eqn:E; [| destruct H].
  unfold message in H. destruct (g q) eqn:G; [destruct H |]. destruct H as [H | []]. injection H as <- <-. auto.
Qed.

(** Every position of every box rank [r] sends is in its source array, of
    every box it receives in its target array, and a copy reads the one and
    writes the other. *)
Theorem region_boxes_inside : forall r,
  (forall p bs bx l, In (p, bs) (region_sends S T r) -> In bx bs -> in_lbox bx l = true -> in_source r l)
  /\ (forall p bs bx l, In (p, bs) (region_recvs S T r) -> In bx bs -> in_lbox bx l = true -> in_target r l)
  /\ (forall sb tb, In (sb, tb) (region_copies S T r) ->
        (forall l, in_lbox sb l = true -> in_source r l) /\ (forall l, in_lbox tb l = true -> in_target r l)).
Proof.
  intros r. split; [| split].
  - intros p bs bx l H Hbx Hl. apply in_messages in H. destruct H as [_ ->].
    apply in_map_iff in Hbx. destruct Hbx as (b & <- & Hb). exact (proj1 (cell_sides r p b Hb) l Hl).
  - intros p bs bx l H Hbx Hl. apply in_messages in H. destruct H as [_ ->].
    apply in_map_iff in Hbx. destruct Hbx as (b & <- & Hb). exact (proj2 (cell_sides p r b Hb) l Hl).
  - intros sb tb H. unfold region_copies in H. apply in_map_iff in H. destruct H as (b & E & Hb).
    injection E as <- <-. exact (cell_sides r r b Hb).
Qed.

End Inside.

(** ** Which rank sends which element, for any holder choice *)

(** Any holder choice that returns holders takes each element [r] receives
    from the rank the region messages take it from, or from a replica of it
    (a rank in the same part of every source cut, holding the same elements);
    from that very rank when the source mesh has no two replicas. *)
Theorem region_sender_replica : forall S T h p r i,
  clayout_wf S = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hreturns_holders (clayout_holding S) (clayout_holding T) h ->
  sends_to S p r = true -> In i (flat_map lbox_elems (region_cells S T p r)) ->
  exists cp ch, cl_device S p = Some cp /\ cl_device S (h r i) = Some ch
    /\ c_has (cl_m S) (cl_ty S) ch i = true /\ same_parts (cl_m S) (cl_ty S) ch cp = true.
Proof.
  intros S T h p r i HS HT Hg Hh Hp Hi.
  apply (region_cells_elems S T HS HT Hg) in Hi. destruct Hi as (cp & ct & Hcp & Hct & Hs & Ht).
  destruct (c_local_of_has _ _ _ _ (cl_device_in T r ct HT Hct) Ht) as [Hl Hgl].
  assert (Hsh : hd_shape (clayout_holding T) r = Some (c_shape (cl_m T) (cl_ty T) ct)) by (simpl; rewrite Hct; reflexivity).
  pose proof (Hh r _ (c_local (cl_m T) (cl_ty T) ct i) Hsh Hl) as Hhold. simpl in Hhold.
  unfold device_or_self in Hhold. rewrite Hct, Hgl in Hhold.
  destruct (cl_device S (h r i)) as [ch|] eqn:Hch; [| discriminate].
  exists cp, ch. split; [exact Hcp |]. split; [reflexivity |]. split; [exact Hhold |].
  apply (has_same_parts _ _ _ _ i Hhold Hs).
Qed.

(** No two ranks of the source mesh are replicas. *)
Definition no_replicas (S : clayout) : Prop :=
  forall k k', k < length (pm_ranks (cl_mesh S)) -> k' < length (pm_ranks (cl_mesh S)) ->
  same_parts (cl_m S) (cl_ty S) (device_of_rank (cl_m S) k) (device_of_rank (cl_m S) k') = true -> k = k'.

(** Without replicas, every holder choice that returns holders and keeps
    what a rank holds sends, peer by peer, exactly the elements the region
    messages send: those of the cells from [p] to [r]. *)
Theorem region_messages_any_holder : forall S T h p r i,
  clayout_wf S = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) -> no_replicas S ->
  hreturns_holders (clayout_holding S) (clayout_holding T) h -> hpicks_self (clayout_holding S) h ->
  In p (pm_ranks (cl_mesh S)) ->
  (sends_to S p r = true /\ In i (flat_map lbox_elems (region_cells S T p r)))
  <-> (hd_has (clayout_holding T) r i = true /\ hd_has (clayout_holding S) r i = false /\ h r i = p).
Proof.
  intros S T h p r i HS HT Hg Hno Hh Hself Hpin.
  assert (Hsame : forall p', sends_to S p' r = true -> In i (flat_map lbox_elems (region_cells S T p' r)) -> h r i = p').
  { intros p' Hp' Hi. destruct (region_sender_replica S T h p' r i HS HT Hg Hh Hp' Hi) as (cp & ch & Hcp & Hch & _ & Hsp).
    destruct (cl_device_index _ _ _ Hcp) as (k & Hk & ->). destruct (cl_device_index _ _ _ Hch) as (k' & Hk' & ->).
    apply index_of_Some in Hk, Hk'. destruct Hk as [Hk Ek]. destruct Hk' as [Hk' Ek'].
    rewrite <- Ek, <- Ek'. f_equal. apply Hno; assumption. }
  split.
  - intros [Hp Hi]. split; [| split; [exact (sender_not_self S T HS HT Hg p r i Hp Hi) | exact (Hsame p Hp Hi)]].
    apply (region_cells_elems S T HS HT Hg) in Hi. destruct Hi as (cs & ct & _ & Hct & _ & Ht). simpl. rewrite Hct. exact Ht.
  - intros (H1 & H2 & H3). destruct (sender_exists S T HS HT Hg r i H1 H2) as (p' & _ & Hp' & Hi).
    rewrite <- H3, (Hsame p' Hp' Hi). auto.
Qed.

(** ** One ceil-block cut per dimension: the region messages are Part 2's exchange *)

Lemma cty_of_ty_axes : forall t, cty_axes (cty_of_ty t) = ty_axes t.
Proof.
  induction t as [|d t IH]; [reflexivity |]. unfold cty_axes, ty_axes in *. simpl. rewrite app_nil_r, IH. reflexivity.
Qed.

Lemma clayout_of_layout_wf : forall L, layout_wf L = true -> clayout_wf (clayout_of_layout L) = true.
Proof.
  intros L HL. unfold layout_wf, lty_wf in HL. unfold clayout_wf, cty_wf, cl_m. simpl.
  rewrite !andb_true_iff in HL |- *. destruct HL as [Hp [Hax Hnd]].
  split; [exact Hp |]. split; [| rewrite cty_of_ty_axes; exact Hnd].
  apply forallb_forall. intros cd Hcd. unfold cty_of_ty in Hcd. apply in_map_iff in Hcd.
  destruct Hcd as (d & <- & Hd). rewrite forallb_forall in Hax. specialize (Hax d Hd).
  simpl. unfold cut_wf. simpl. rewrite !andb_true_r. exact Hax.
Qed.

Lemma one_cut_missing : forall S T r, layout_wf S = true -> layout_wf T = true ->
  hmissing (clayout_holding (clayout_of_layout S)) (clayout_holding (clayout_of_layout T)) r = missing S T r.
Proof.
  intros S T r HS HT. rewrite missing_holdings. unfold hmissing.
  destruct (one_cut_holding T r HT) as (T1 & _ & _ & T4). destruct (one_cut_holding S r HS) as (_ & S2 & _ & _).
  rewrite T1. destruct (hd_shape (layout_holding T) r); [| reflexivity].
  rewrite (map_ext _ _ T4). apply filter_ext. intros i. rewrite S2. reflexivity.
Qed.

(** On Part 2's layouts, rank [r]'s region messages carry, once each, the
    elements of Part 2's [missing S T r]: [recv_lower_bound S T r] of them,
    what Part 2's exchange with the command's holder choice receives. *)
Theorem one_cut_region_recv : forall S T r, layouts_wf S T = true ->
  Permutation (region_recv_elems (clayout_of_layout S) (clayout_of_layout T) r) (missing S T r)
  /\ region_recv_count (clayout_of_layout S) (clayout_of_layout T) r = recv_lower_bound S T r
  /\ region_recv_count (clayout_of_layout S) (clayout_of_layout T) r = exchange_received S T (spread_holder S T) r.
Proof.
  intros S T r Hwf. set (cS := clayout_of_layout S). set (cT := clayout_of_layout T). pose proof Hwf as Hwf'. unfold layouts_wf in Hwf'.
  rewrite !andb_true_iff, list_eqb_eq in Hwf'. destruct Hwf' as [[HS HT] Hgs].
  assert (Hg : map snd (cl_ty cS) = map snd (cl_ty cT)).
  { unfold cS, cT, clayout_of_layout, cty_of_ty. simpl. rewrite !map_map. exact Hgs. }
  pose proof (clayout_of_layout_wf S HS) as HcS. pose proof (clayout_of_layout_wf T HT) as HcT.
  destruct (region_recv_exact cS cT HcS HcT Hg r) as (Hnd & Hin & Hcount).
  unfold cS, cT in Hcount. rewrite one_cut_missing in Hcount by assumption. fold cS cT in Hcount.
  destruct (hmissing_spec (clayout_holding cS) (clayout_holding cT) r (cuts_holding_laws cT HcT)) as [Hm Hmi].
  unfold cS, cT in Hm, Hmi. rewrite one_cut_missing in Hm, Hmi by assumption.
  split; [| split].
  - apply NoDup_Permutation; [exact Hnd | exact Hm |]. intros i. rewrite Hin, Hmi. reflexivity.
  - rewrite Hcount. symmetry. apply recv_lower_bound_exact. exact Hwf.
  - rewrite Hcount. destruct (spread_holder_ok S T Hwf) as [Hh Hself].
    symmetry. apply exchange_recv_exact; assumption.
Qed.

(** ** Every target position is written once *)

Lemma map_flat_map : forall A B C (f : B -> C) (g : A -> list B) l,
  map f (flat_map g l) = flat_map (fun x => map f (g x)) l.
Proof. intros. induction l as [|a l IH]; simpl; [reflexivity |]. rewrite map_app, IH. reflexivity. Qed.

(** A global box inside a device's intervals, read in its local array, is
    the local indices of the box's elements, in the same order. *)
Lemma localize_elems : forall m t c b, cty_chunks_ok m t c -> Forall2 inside_interval b (c_intervals m t c) ->
  lbox_elems (localize m t c b) = map (c_local m t c) (lbox_elems b).
Proof.
  induction t as [|d t IH]; intros c b Hok Hb.
  - inversion Hb. subst. reflexivity.
  - inversion Hb as [| iv ivs b' ds Hiv Hb']. subst.
    apply cty_chunks_ok_cons in Hok. destruct Hok as [Hd Hok].
    destruct Hiv as (a & n & Hin & H1 & H2).
    simpl. rewrite (IH c b' Hok Hb'), map_flat_map.
    rewrite <- (map_seq_run (dim_local m (fst d) (snd d) c) (fst iv) (snd iv)).
    + rewrite flat_map_of_map. apply flat_map_ext. intros x. rewrite !map_map. reflexivity.
    + intros s Hs.
      destruct (interval_run m (fst d) (snd d) c a n (fst iv - a) Hd Hin ltac:(lia)) as [_ E1].
      destruct (interval_run m (fst d) (snd d) c a n (fst iv - a + s) Hd Hin ltac:(lia)) as [_ E2].
      replace (a + (fst iv - a)) with (fst iv) in E1 by lia.
      replace (a + (fst iv - a + s)) with (fst iv + s) in E2 by lia. lia.
Qed.

Lemma cells_local_elems : forall m t c bs, cty_chunks_ok m t c ->
  (forall b, In b bs -> Forall2 inside_interval b (c_intervals m t c)) ->
  flat_map lbox_elems (map (localize m t c) bs) = map (c_local m t c) (flat_map lbox_elems bs).
Proof.
  intros m t c bs Hok H. induction bs as [|b bs IH]; [reflexivity |]. simpl.
  rewrite map_app, localize_elems, IH; [reflexivity | | exact Hok | apply H; left; reflexivity].
  intros b' Hb'. apply H. right. exact Hb'.
Qed.

Section Writes.
Variables S T : clayout.
Hypothesis HS : clayout_wf S = true.
Hypothesis HT : clayout_wf T = true.
Hypothesis Hg : map snd (cl_ty S) = map snd (cl_ty T).

Lemma recvs_boxes : forall r, flat_map snd (region_recvs S T r) = map (tgt_local T r) (region_recv_cells S T r).
Proof.
  intros r. unfold region_recvs, region_recv_cells. induction (pm_ranks (cl_mesh S)) as [|p ps IH]; [reflexivity |].
  simpl. rewrite flat_map_app, map_app, IH. f_equal. destruct (sends_to S p r); [| reflexivity].
  unfold message. destruct (map (tgt_local T r) (region_cells S T p r)); simpl; [reflexivity | rewrite app_nil_r; reflexivity].
Qed.

Lemma region_cells_inside : forall p r ct b, cl_device T r = Some ct -> In b (region_cells S T p r) ->
  Forall2 inside_interval b (c_intervals (cl_m T) (cl_ty T) ct).
Proof.
  intros p r ct b Hct Hb. unfold region_cells in Hb. rewrite Hct in Hb.
  destruct (cl_device S p) as [cs|]; [| destruct Hb].
  assert (Hl : length (c_intervals (cl_m S) (cl_ty S) cs) = length (c_intervals (cl_m T) (cl_ty T) ct)).
  { unfold c_intervals. rewrite !map_length. rewrite <- (map_length snd (cl_ty S)), Hg, map_length. reflexivity. }
  exact (proj2 (cells_inside _ _ b Hl Hb)).
Qed.

(** The positions rank [r]'s copies and receives write in its target array:
    each position of the array once (no two boxes overlap, none is left out),
    so the runtime's receives and copies never race and leave nothing unset. *)
Theorem region_writes_exact : forall r ct, cl_device T r = Some ct ->
  NoDup (flat_map lbox_elems (map snd (region_copies S T r)) ++ flat_map lbox_elems (flat_map snd (region_recvs S T r)))
  /\ forall l, In l (flat_map lbox_elems (map snd (region_copies S T r)) ++ flat_map lbox_elems (flat_map snd (region_recvs S T r)))
               <-> in_box (c_shape (cl_m T) (cl_ty T) ct) l.
Proof.
  intros r ct Hct.
  set (G := flat_map lbox_elems (region_cells S T r r) ++ region_recv_elems S T r).
  assert (Htl : forall b, tgt_local T r b = localize (cl_m T) (cl_ty T) ct b) by (intros b; unfold tgt_local; rewrite Hct; reflexivity).
  pose proof (cl_device_in T r ct HT Hct) as Okt.
  assert (Hw : flat_map lbox_elems (map snd (region_copies S T r)) ++ flat_map lbox_elems (flat_map snd (region_recvs S T r))
               = map (c_local (cl_m T) (cl_ty T) ct) G).
  { unfold G, region_recv_elems. rewrite recvs_boxes, map_app. unfold region_copies. rewrite map_map. simpl.
    rewrite !(map_ext _ _ Htl). f_equal; apply cells_local_elems; try exact Okt.
    - intros b Hb. exact (region_cells_inside r r ct b Hct Hb).
    - intros b Hb. unfold region_recv_cells in Hb. apply in_flat_map in Hb. destruct Hb as (p & _ & Hb).
      destruct (sends_to S p r); [exact (region_cells_inside p r ct b Hct Hb) | destruct Hb]. }
  assert (HG : forall i, In i G <-> c_has (cl_m T) (cl_ty T) ct i = true).
  { intros i. unfold G. rewrite in_app_iff, (proj1 (proj2 (region_recv_exact S T HS HT Hg r)) i), region_cells_elems by assumption.
    simpl. rewrite Hct. split.
    - intros [(cs & ct' & _ & E & _ & H) | [H _]]; [injection E as <-; exact H | exact H].
    - intros H. destruct (cl_device S r) as [cs|] eqn:Hcs; [| right; auto].
      destruct (c_has (cl_m S) (cl_ty S) cs i) eqn:E; [left; exists cs, ct; auto | right; auto]. }
  assert (HnG : NoDup G).
  { unfold G. apply NoDup_app_disjoint.
    - unfold region_cells. rewrite Hct. destruct (cl_device S r) as [cs|] eqn:Hcs; [| constructor].
      exact (proj1 (device_cells_elems S T cs ct (cl_device_in S r cs HS Hcs) Okt Hg)).
    - exact (proj1 (region_recv_exact S T HS HT Hg r)).
    - intros i H1 H2. apply (region_cells_elems S T HS HT Hg) in H1. destruct H1 as (cs & _ & Hcs & _ & Hs & _).
      apply (region_recv_exact S T HS HT Hg r) in H2. destruct H2 as [_ H2]. simpl in H2. rewrite Hcs, Hs in H2. discriminate. }
  rewrite Hw. split.
  - apply NoDup_map_in; [| exact HnG]. intros x y Hx Hy E. apply HG in Hx, Hy.
    rewrite <- (proj2 (c_local_of_has _ _ _ _ Okt Hx)), <- (proj2 (c_local_of_has _ _ _ _ Okt Hy)), E. reflexivity.
  - intros l. rewrite in_map_iff. split.
    + intros (i & <- & Hi). apply HG in Hi. exact (proj1 (c_local_of_has _ _ _ _ Okt Hi)).
    + intros Hl. destruct (c_global_has _ _ _ _ Okt Hl) as [H1 H2]. exists (c_global (cl_m T) (cl_ty T) ct l).
      split; [exact H2 | apply HG, H1].
Qed.

End Writes.
