package hongbao.core.campaign;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.ledger.Idempotency;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import hongbao.core.reward.VirtualQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Creates campaigns (once per Idempotency-Key: the key, the campaign and the move of its budget
 * into escrow are one transaction), edits scheduled ones, and tells where one stands. After the
 * commit the campaign is armed — budget keys, sub-pools, prize types — which is idempotent and is
 * done again by whichever instance loads the campaign (or a new version of it) first, so a failure
 * between commit and arming heals itself.
 *
 * <p><b>Editing.</b> An edit is a new version of the campaign, committed only while the first round
 * is more than the edit lead away ({@link CampaignStore#edit}, which also moves the budget's
 * difference in or out of the escrow). The new version has pools of its own in Redis (so the two
 * never mix) and resizes the reward budget, both at its arming: nothing was won before the first
 * round, and an edit is refused once the reward API reserved from the budget, so both are safe
 * then. The old version's pools are deleted afterwards, best effort. Other instances pick the new
 * version up within {@link Campaigns}'s refresh, long before a round of either version runs.
 */
public final class CampaignService {

  public static final String ENDPOINT = "campaign";

  private static final System.Logger LOG = System.getLogger(CampaignService.class.getName());

  /**
   * A prize type nobody defined is created as a coupon of the built-in coupon book, at this rate: a
   * campaign names its prizes, and an operator may tune the type afterwards.
   */
  static final long DEFAULT_COUPON_RATE = 2_000;

  private static final String PENDING_ID = "c_pending";

  private static final String ID_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

  private final CampaignStore store;
  private final Campaigns campaigns;
  private final PrizePools pools;
  private final RewardTypes types;
  private final RewardBudget budget;
  private final Clock clock;
  private final RandomGenerator random;

  public CampaignService(
      CampaignStore store,
      Campaigns campaigns,
      PrizePools pools,
      RewardTypes types,
      RewardBudget budget,
      Clock clock,
      RandomGenerator random) {
    this.store = store;
    this.campaigns = campaigns;
    this.pools = pools;
    this.types = types;
    this.budget = budget;
    this.clock = clock;
    this.random = random;
  }

  /**
   * The arming step, for {@link Campaigns}: the pools through {@link PrizeRecovery}, which first
   * sets up the prize types and the budget ({@link #issuing}) and puts back the wins the reward
   * book holds when Redis had lost them.
   */
  public static Campaigns.Arming arming(PrizeRecovery recovery) {
    return recovery::restore;
  }

  /**
   * What a campaign's wins are issued against: a type for every prize (a type nobody defined made a
   * coupon) and the budget's keys. Idempotent: what exists is left as it is. A campaign whose
   * budget went back has its keys closed again: keys Redis lost, opened afresh here, would
   * otherwise take rewards (202) that its empty escrow can never pay, where closed ones refuse them
   * (402).
   */
  public static Consumer<Campaign> issuing(
      RewardTypes types, RewardBudget budget, CampaignStore store, BudgetClosing closing) {
    return campaign -> {
      for (Round round : campaign.rounds()) {
        for (PrizeLine prize : round.prizes()) {
          // Fresh: a type an operator defined on another instance a moment ago must not be
          // overwritten by a default coupon because this instance's copy lags.
          if (types.findFresh(prize.type()).isEmpty()) {
            types.put(
                new RewardType(
                    prize.type(),
                    RewardKind.COUPON,
                    DEFAULT_COUPON_RATE,
                    DEFAULT_COUPON_RATE / 10,
                    false,
                    VirtualQueue.MASSIVE,
                    null));
          }
        }
      }
      budget.open(campaign.id(), campaign.budget(), campaign.version());
      if (store.returned(campaign.id()).isPresent()) {
        closing.close(campaign.id());
      }
    };
  }

  public StoredAnswer create(
      CampaignDraft draft, IdempotencyKey key, Function<Campaign, StoredAnswer> render) {
    // The contract's order: validation (400) before an idempotency replay or conflict (409).
    Campaign valid = CampaignRules.accept(PENDING_ID, draft, this::isCash, clock.instant());
    Optional<StoredAnswer> earlier = Idempotency.replay(store::answerFor, key);
    if (earlier.isEmpty() && store.createdUnder(key).isPresent()) {
      // A request with the same key committed its campaign and answer together between the two
      // reads, and the answer is there now; or the answer was purged (past its retention), its
      // campaign was not: the same key again is a request already made, not a second campaign
      // (and not the creation key's 500).
      earlier = Idempotency.replay(store::answerFor, key);
      if (earlier.isEmpty()) {
        throw new RejectedException(
            Rejection.IDEMPOTENCY_CONFLICT,
            "this Idempotency-Key was used for a campaign whose answer is no longer kept:"
                + " use a new key");
      }
    }
    if (earlier.isPresent()) {
      store.createdUnder(key).ifPresent(campaigns::find);
      return earlier.get();
    }
    for (int attempt = 1; ; attempt++) {
      Campaign campaign = valid.withId(newId());
      StoredAnswer answer = render.apply(campaign);
      try {
        store.create(campaign, key, answer);
      } catch (IdempotencyRaceException race) {
        return Idempotency.replay(store::answerFor, key).orElseThrow(() -> race);
      } catch (CampaignStore.IdTaken taken) {
        // An operator opened a reward campaign under an id of this form: draw another one.
        if (attempt == ID_ATTEMPTS_MAX) {
          throw taken;
        }
        continue;
      }
      campaigns.arming().arm(campaign);
      campaigns.remember(campaign, campaign.createdAt());
      return answer;
    }
  }

  /**
   * Replaces a scheduled campaign's terms with those of {@code draft} (PUT: the same draft again
   * changes nothing, and arms again, which heals an edit whose arming failed after its commit).
   *
   * @return the campaign as it now stands
   * @throws hongbao.core.RejectedException the draft's rule (400) before anything else, NOT_FOUND
   *     for an unknown campaign, CONFLICT when the campaign runs, ended, starts within the edit
   *     lead, or the draft would
   */
  public CampaignView edit(String id, CampaignDraft draft) {
    Instant now = clock.instant();
    Campaign terms = CampaignRules.accept(id, draft, this::isCash, now);
    EditFreeze freeze = freezeForEdit(id, terms, now);
    // A failure here leaves the freeze to end: the commit may have happened, and once it ended the
    // next reward asks the books (RewardSender.settleLapsedFreeze).
    CampaignStore.Edit edit =
        store.edit(id, terms, clock, campaigns.lead(), () -> holdStill(id, freeze));
    if (freeze != null && !(edit instanceof CampaignStore.Edit.Edited)) {
      thaw(id, freeze.token());
    }
    switch (edit) {
      case CampaignStore.Edit.NotFound notFound ->
          throw new RejectedException(Rejection.NOT_FOUND, "no campaign " + id);
      case CampaignStore.Edit.TooLate late ->
          throw new RejectedException(Rejection.CONFLICT, late.why());
      case CampaignStore.Edit.Unchanged unchanged -> {
        campaigns.arming().arm(unchanged.current());
        campaigns.remember(unchanged.current(), now);
      }
      case CampaignStore.Edit.Edited edited -> {
        // The arming resizes the budget at the new version, which lets the frozen keys go.
        campaigns.arming().arm(edited.after());
        campaigns.remember(edited.after(), now);
        discard(edited.before());
      }
    }
    return view(id);
  }

  /**
   * How long an edit holds the campaign's budget still: the commit and the arming take
   * milliseconds. A freeze left by an instance that died, or by an arming that failed, refuses
   * rewards this long at most; after it, the next reward settles it from the books.
   */
  static final Duration EDIT_FREEZE = Duration.ofSeconds(30);

  /**
   * Taps reserve only in a round, but the reward API may pay from any campaign at any time: once it
   * has, the budget's keys hold reservations, or allowance lent between them (a reservation that
   * found its key dry, even one released since), which a resize would lose (budget_open refuses
   * it). The terms are then fixed; the same terms again still re-arm. A change first freezes the
   * budget ({@link RewardBudget#freeze}), which checks that in the same step: a reward sent after
   * it waits (503, retried) until the arming has resized the budget, instead of landing between
   * this look and the resize and leaving the keys half resized. One edit at a time: a second one
   * while the first holds the freeze is told to try again. Nothing is frozen for an edit that comes
   * too late (the store refuses it), and no freeze lasts past the edit lead before the first round:
   * a running rain's wins must never find their budget frozen.
   *
   * @return the freeze, or null when nothing was frozen
   */
  private EditFreeze freezeForEdit(String id, Campaign terms, Instant now) {
    Optional<Campaign> current = store.find(id);
    if (current.isEmpty()
        || current.get().sameTermsAs(terms)
        || !now.isBefore(current.get().startsAt().minus(campaigns.lead()))) {
      return null; // 404, the same terms again, or too late: the store answers
    }
    // An earlier edit may have committed without arming, its freeze since ended: this freeze
    // would take that one over, and a rollback of this edit would then leave the keys at the old
    // version unfrozen, for a reward to spend from and the resize to be refused for good. Opening
    // the stored version's budget first resizes them (a no-op when they hold it). Only the budget:
    // arming the pools of a version another edit may be replacing would leave them behind.
    budget.open(id, current.get().budget(), current.get().version());
    var freeze =
        new EditFreeze(
            Long.toString(random.nextLong() & Long.MAX_VALUE, 36),
            current.get().startsAt().minus(campaigns.lead()));
    freeze(id, freeze, now);
    // Read before the freeze, the campaign may have been edited since (its first round moved
    // sooner, past what this freeze may last to): look again, under the freeze.
    Optional<Campaign> still = store.find(id);
    if (still.isEmpty() || still.get().version() != current.get().version()) {
      // The other edit may have committed without arming (this freeze took over its lapsed one):
      // open its budget first, or a reward could reserve on keys its resize then finds spent.
      still.ifPresent(c -> budget.open(id, c.budget(), c.version()));
      thaw(id, freeze.token());
      throw new Unavailable("campaign", "campaign " + id + " was edited meanwhile", null);
    }
    return freeze;
  }

  /**
   * An edit's hold on the budget: its token, and the last instant it may last to (the edit lead
   * before the first round: a round must never find its budget frozen, whatever becomes of the
   * edit).
   */
  private record EditFreeze(String token, Instant latest) {
    Instant until(Instant now) {
      Instant until = now.plus(EDIT_FREEZE);
      return until.isBefore(latest) ? until : latest;
    }
  }

  /**
   * Freezes (or, with the same token, freezes again until later) the campaign's budget.
   *
   * @throws RejectedException CONFLICT once the budget was reserved from
   * @throws Unavailable while another edit holds it (the same PUT retried, too: try again)
   */
  private void freeze(String id, EditFreeze freeze, Instant now) {
    switch (budget.freeze(id, freeze.until(now), freeze.token())) {
      case FROZEN -> {}
      case SPENT_FROM ->
          throw new RejectedException(
              Rejection.CONFLICT,
              "campaign "
                  + id
                  + " has had its budget reserved from by rewards: it can no longer be edited");
      case EDIT_IN_PROGRESS ->
          throw new Unavailable(
              "campaign", "another edit of campaign " + id + " is in progress", null);
    }
  }

  /**
   * Last in the transaction of an edit that changes the terms: the freeze must still hold when the
   * new budget commits. An edit that waited longer than its freeze (locks, a busy pool) freezes
   * again under the same token, which checks again that nothing was reserved meanwhile, or is
   * rolled back, as is one that comes too late by now or that froze nothing (it looked unchanged or
   * too late, and another edit changed that meanwhile).
   */
  private void holdStill(String id, EditFreeze freeze) {
    if (freeze == null) {
      // It looked unchanged or too late, but another edit moved the campaign meanwhile: nothing
      // holds its budget still for this one.
      throw new Unavailable("campaign", "campaign " + id + " was edited meanwhile", null);
    }
    Instant now = clock.instant();
    try {
      if (!now.isBefore(freeze.latest())) {
        throw new RejectedException(
            Rejection.CONFLICT,
            "campaign " + id + " now starts within the edit lead: an edit must leave that time");
      }
      freeze(id, freeze, now);
    } catch (RuntimeException e) {
      thaw(id, freeze.token()); // the edit rolls back for certain
      throw e;
    }
  }

  /** Best effort: a freeze left behind ends ({@link #EDIT_FREEZE}), then a reward settles it. */
  private void thaw(String id, String token) {
    try {
      budget.thaw(id, token);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "campaign " + id + ": its budget stays frozen until the freeze ends: " + e);
    }
  }

  /**
   * Deletes a replaced version's pools. Best effort: a failure leaves keys nobody reads (an
   * instance holding the old copy taps them only outside any round, which counts the rate and
   * nothing else).
   */
  private void discard(Campaign replaced) {
    try {
      pools.discard(replaced);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "the pools of " + replaced.id() + " version " + replaced.version() + " stay: " + e);
    }
  }

  /**
   * Ids drawn before giving up: a collision needs a reward campaign opened by hand under the same
   * sequence number and the same 4 random base-36 digits (1 in 1.7 million).
   */
  static final int ID_ATTEMPTS_MAX = 3;

  /**
   * Fresh, as above: a CASH type defined on another instance a moment ago, unknown to this copy,
   * would otherwise pass for a coupon, and a campaign whose CASH prizes exceed its budget would be
   * accepted.
   */
  private boolean isCash(String type) {
    return types.findFresh(type).map(t -> t.kind() == RewardKind.CASH).orElse(false);
  }

  /** {@code c_<number in base 36><4 random base-36 digits>}: unique, and not guessable in turn. */
  private String newId() {
    var id = new StringBuilder("c_").append(Long.toString(store.nextNumber(), 36));
    for (int i = 0; i < 4; i++) {
      id.append(ID_DIGITS.charAt(random.nextInt(ID_DIGITS.length())));
    }
    return id.toString();
  }

  /** Where a campaign stands now. */
  public CampaignView view(String id) {
    var now = clock.instant();
    Campaign campaign = campaigns.get(id);
    var rounds = new ArrayList<CampaignView.RoundView>();
    for (Round round : campaign.rounds()) {
      CampaignStatus status =
          now.isBefore(round.startsAt())
              ? CampaignStatus.SCHEDULED
              : now.isBefore(round.endsAt()) ? CampaignStatus.RUNNING : CampaignStatus.ENDED;
      rounds.add(new CampaignView.RoundView(round, status, pools.pulse(campaign, round).left()));
    }
    RewardBudget.BudgetState state = budget.state(id);
    Amount spent = state == null ? Amount.ZERO : state.reserved();
    return new CampaignView(
        campaign,
        campaign.statusAt(now),
        rounds,
        spent,
        store.returned(id).map(CampaignStore.Return::amount).orElse(null));
  }

  /** A campaign and where it stands. */
  public record CampaignView(
      Campaign campaign,
      CampaignStatus status,
      List<RoundView> rounds,
      Amount spent,
      Amount returned) {

    /** A round and what each prize line has left. */
    public record RoundView(Round round, CampaignStatus status, List<Long> left) {
      public long prizesLeft() {
        return left.stream().mapToLong(Long::longValue).sum();
      }
    }
  }
}
