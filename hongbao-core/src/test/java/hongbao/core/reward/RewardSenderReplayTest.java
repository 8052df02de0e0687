package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.Unavailable;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A synchronous send that fails undoes its reservation, so a replay of its tradeNo that comes while
 * it is still issuing must not be answered ACCEPTED ("on a queue: it will be credited exactly
 * once"): nothing would queue it, and with the trade released the reconciler would have nothing to
 * name. The replay is told to try again (503) instead.
 *
 * <p>The interleaving is a client retrying on its own timeout while the first (synchronous) call
 * waits for a slow issuer that then times out. The budget here is an in-memory stand-in with the
 * reservation semantics of {@code budget_reserve.lua} / {@code budget_release.lua} (first answer by
 * tradeNo and digest, marked for a synchronous send; release forgets the trade).
 */
class RewardSenderReplayTest {

  private static final RewardType TEA = RewardDoubles.TEA;

  private static final RewardRequest REQUEST =
      new RewardRequest("t1", "u1", "c1", "rain", "TEA", 1, "");

  /** Fresh for each test: the stores the sender under test works on. */
  private final RewardDoubles.MemoryBudget budget = new RewardDoubles.MemoryBudget();

  private final List<Reward> queued = Collections.synchronizedList(new ArrayList<>());
  private final RewardDoubles.MemoryClaims claims = new RewardDoubles.MemoryClaims();
  private final TokenStore tokenStore = new RewardDoubles.MemoryTokens();
  private final RewardBook book = RewardDoubles.emptyBook();

  private RewardSender sender(Issuer issuer) {
    return sender(issuer, book, Clock.systemUTC(), (type, permits) -> 0);
  }

  private RewardSender sender(Issuer issuer, RewardBook book, Clock clock, TypeThrottle throttle) {
    return new RewardSender(
        RewardDoubles.typesOf(TEA),
        new RewardDoubles.PlainTokens(),
        budget,
        FundedBudgets.NONE,
        claims,
        tokenStore,
        recordingQueues(queued),
        new RewardService(book, issuer, tokenStore, RewardMetrics.NONE),
        book,
        new RewardDoubles.AlwaysOn(),
        throttle,
        duration -> {},
        clock);
  }

  /**
   * The database goes down during a synchronous send, hiding its outcome: the send cannot tell
   * whether it credited, so it neither answers CREDITED nor undoes its reservation. Its replays are
   * told to try again while it may still be running; once {@link RewardSender#SYNC_SETTLED_WITHIN}
   * has passed it cannot be, and a replay finishes it instead of leaving the tradeNo stuck for
   * good.
   */
  @Test
  void aSyncSendWhoseOutcomeAnOutageHid_isFinishedByAReplay_onceItCannotStillBeRunning() {
    var down = new java.util.concurrent.atomic.AtomicBoolean();
    var issued = new java.util.concurrent.atomic.AtomicInteger();
    var recorded = new java.util.concurrent.ConcurrentHashMap<String, RewardRecord>();
    RewardBook failing =
        recordingBook(
            recorded,
            call -> down.get() ? new Unavailable("postgres", "connection refused", null) : null);
    Issuer issuer =
        (reward, type) -> {
          if (issued.incrementAndGet() == 1) {
            down.set(true); // the database goes down while the issuer answers the first call
          }
          return new Issuer.Issue.Issued();
        };
    var clock = new MovingClock();
    // A second replay comes while the first is between reading the trade and taking it over.
    var sender = new AtomicReference<RewardSender>();
    var racing = new AtomicReference<Runnable>(() -> {});
    TypeThrottle throttle =
        (type, permits) -> {
          Runnable race = racing.getAndSet(() -> {});
          race.run();
          return 0;
        };
    sender.set(sender(issuer, failing, clock, throttle));

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.get().sendSync(REQUEST))
        .isInstanceOf(Unavailable.class);
    down.set(false);
    clock.now = clock.now.plusSeconds(60);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.get().sendSync(REQUEST))
        .as("it may still be running")
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("still being issued");

    clock.now = clock.now.plus(RewardSender.SYNC_SETTLED_WITHIN);
    var second = new AtomicReference<SendOutcome>();
    racing.set(() -> second.set(sender.get().sendSync(REQUEST)));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.get().sendSync(REQUEST))
        .as("the other replay took it over first")
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("still being issued");

    assertThat(second.get()).isInstanceOf(SendOutcome.Credited.class);
    assertThat(issued).as("issued again once: the issuer is idempotent by tradeNo").hasValue(2);
    assertThat(recorded).containsOnlyKeys("t1");
    assertThat(sender.get().send(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
  }

  /**
   * The issuer issues the coupon, then the reward book cannot record it (one failed write; the
   * database answers again at once). The coupon is live downstream, so the send must not give its
   * budget back and answer ISSUER_FAILED: it answers an outage and keeps the reservation, and a
   * replay once the send cannot still be running issues it again and records it.
   */
  @Test
  void aSyncSendWhoseIssuedCouponTheBookFailedToRecord_keepsItsReservation_untilAReplayRecordsIt() {
    var issued = new java.util.concurrent.atomic.AtomicInteger();
    var writesToFail = new java.util.concurrent.atomic.AtomicInteger(1);
    var recorded = new java.util.concurrent.ConcurrentHashMap<String, RewardRecord>();
    RewardBook flaky =
        recordingBook(
            recorded,
            call ->
                call.equals("recordIssued") && writesToFail.getAndDecrement() > 0
                    ? new Unavailable("postgres", "statement timeout", null)
                    : null);
    Issuer issuer =
        (reward, type) -> {
          issued.incrementAndGet();
          return new Issuer.Issue.Issued();
        };
    var clock = new MovingClock();
    RewardSender sender = sender(issuer, flaky, clock, (type, permits) -> 0);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.sendSync(REQUEST))
        .isInstanceOf(Unavailable.class);
    assertThat(budget.trades).as("the reservation stays").containsKey("t1");

    clock.now = clock.now.plus(RewardSender.SYNC_SETTLED_WITHIN).plusSeconds(1);
    assertThat(sender.sendSync(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
    assertThat(issued).as("issued again once: the issuer is idempotent by tradeNo").hasValue(2);
    assertThat(recorded).containsOnlyKeys("t1");
  }

  /**
   * A sender without the reward book (an SDK built without crediting) cannot tell a failed issue
   * from a credited one. It refuses a synchronous send before reserving anything; and a replay of a
   * synchronous send that stopped unsettled is told to try again rather than taken over: reading
   * "not credited" from a book it does not have, it would undo the reservation of a reward that
   * paid, and the budget would allow that much more than its escrow holds.
   */
  @Test
  void aSenderWithoutTheBook_neitherSendsSync_norFinishesAStoppedSyncSend() {
    var recorded = new java.util.concurrent.ConcurrentHashMap<String, RewardRecord>();
    var clock = new MovingClock();
    Issuer issuer = (reward, type) -> new Issuer.Issue.Issued();
    RewardSender service = sender(issuer, recordingBook(recorded, call -> null), clock, NO_WAIT);
    Issuer none =
        (reward, type) -> {
          throw new IllegalStateException("no issuer without crediting");
        };
    RewardSender bare = sender(none, noBook(), clock, NO_WAIT);
    // Credited by the service, whose answer was lost: its trade stays marked synchronous.
    assertThat(service.sendSync(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
    clock.now = clock.now.plus(RewardSender.SYNC_SETTLED_WITHIN).plusSeconds(1);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> bare.send(REQUEST))
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("only a sender with the reward book");
    var other = new RewardRequest("t2", "u1", "c1", "rain", "TEA", 1, "");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> bare.sendSync(other))
        .isInstanceOf(IllegalStateException.class);

    assertThat(budget.trades).as("the paid reservation kept; none made").containsOnlyKeys("t1");
    assertThat(service.send(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
  }

  private static final TypeThrottle NO_WAIT = (type, permits) -> 0;

  /** An SDK's stand-in for the book it was built without: it knows nothing and keeps nothing. */
  private static RewardBook noBook() {
    return (RewardBook)
        java.lang.reflect.Proxy.newProxyInstance(
            RewardBook.class.getClassLoader(),
            new Class<?>[] {RewardBook.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "kept" -> false;
                  case "find" -> Optional.empty();
                  default -> throw new AssertionError("unexpected " + method.getName());
                });
  }

  /**
   * A reward book that answers {@code find} and {@code recordIssued} from {@code recorded}, unless
   * {@code failure} names an exception for the call (by method name) first.
   */
  private static RewardBook recordingBook(
      Map<String, RewardRecord> recorded, Function<String, RuntimeException> failure) {
    return (RewardBook)
        java.lang.reflect.Proxy.newProxyInstance(
            RewardBook.class.getClassLoader(),
            new Class<?>[] {RewardBook.class},
            (proxy, method, args) -> {
              if (method.isDefault()) {
                return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
              }
              RuntimeException failed = failure.apply(method.getName());
              if (failed != null) {
                throw failed;
              }
              return switch (method.getName()) {
                case "find" -> Optional.ofNullable(recorded.get((String) args[0]));
                case "recordIssued" -> {
                  Reward reward = (Reward) args[0];
                  recorded.put(reward.tradeNo(), credited(reward));
                  yield RewardBook.Credit.DONE;
                }
                default -> throw new AssertionError("unexpected " + method.getName());
              };
            });
  }

  private static RewardRecord credited(Reward reward) {
    return new RewardRecord(
        reward,
        reward.digest(),
        RewardKind.COUPON,
        RewardRecord.Status.CREDITED,
        reward.awardedAt(),
        null);
  }

  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    Instant now = Instant.parse("2026-11-29T00:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void aReplayAnsweredAccepted_whileTheSyncSendIsInFlight_isNotLostWhenTheSyncSendFails() {
    var sender = new AtomicReference<RewardSender>();
    var retry = new AtomicReference<Object>();
    Issuer slowThenDown =
        (reward, type) -> {
          // The caller's own timeout fired: it sends the same request again (default mode).
          try {
            retry.set(sender.get().send(REQUEST));
          } catch (Unavailable refused) {
            retry.set(refused);
          }
          throw new Issuer.IssuerUnavailable("read timed out");
        };
    sender.set(sender(slowThenDown));

    SendOutcome first = sender.get().sendSync(REQUEST);

    assertThat(first).isInstanceOf(SendOutcome.IssuerFailed.class);
    assertThat(retry.get())
        .as("the retry is told to try again, not that the reward is on a queue")
        .isInstanceOf(Unavailable.class);
    assertThat(queued).isEmpty();
    assertThat(budget.trades).as("the failed send undid its reservation").doesNotContainKey("t1");
    assertThat(tokenStore.holds(REQUEST.at(Instant.EPOCH))).isFalse();
    assertThat(claims.holder("t1"))
        .as("the tradeNo stays its campaign's: a retry there is the same request")
        .contains("c1");
  }

  /**
   * The retry comes the moment the failing send's reservation is gone, as an asynchronous request:
   * it is a send of its own, accepted, and the rest of the undo must leave it whole — its claim on
   * the tradeNo (or another campaign could accept the tradeNo again) and its token copy.
   */
  @Test
  void aRetryAcceptedRightAfterTheFailedSyncSendReleased_keepsItsClaimAndItsTokenCopy() {
    var sender = new AtomicReference<RewardSender>();
    var retry = new AtomicReference<SendOutcome>();
    budget.afterRelease = () -> retry.set(sender.get().send(REQUEST));
    Issuer down =
        (reward, type) -> {
          throw new Issuer.IssuerUnavailable("read timed out");
        };
    sender.set(sender(down));

    SendOutcome first = sender.get().sendSync(REQUEST);

    assertThat(first).isInstanceOf(SendOutcome.IssuerFailed.class);
    assertThat(retry.get()).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(budget.trades).containsKey("t1");
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1");
    assertThat(claims.holder("t1")).as("the retry's campaign holds the tradeNo").contains("c1");
    assertThat(claims.claim("t1", "c2", "any", false)).isEqualTo(TradeClaims.Claim.OTHER);
    assertThat(tokenStore.holds(REQUEST.at(Instant.EPOCH))).as("the retry's token copy").isTrue();
  }

  /**
   * A withdrawal's forced credit credits the CASH rewards the server holds token copies of. A
   * synchronous send that kept one while it issued could be credited by it and then, its own issue
   * failing, be undone and answered ISSUER_FAILED: paid all the same, its budget given back, and
   * sent again by a caller told it failed. So nothing of it is to be found while it issues (the
   * type here is a coupon, but what forced credit and the statement read is the same copy).
   */
  @Test
  void aSyncSend_keepsNoTokenCopyWhileItIssues_andNoneOnceUndone() {
    var copiesSeen = new ArrayList<String>();
    Issuer failing =
        (reward, type) -> {
          copiesSeen.addAll(tokenStore.pending(reward.userId(), ForcedCredits.MAX_TOKENS));
          throw new Issuer.IssuerUnavailable("read timed out");
        };

    assertThat(sender(failing).sendSync(REQUEST)).isInstanceOf(SendOutcome.IssuerFailed.class);

    assertThat(copiesSeen).as("copies while issuing").isEmpty();
    assertThat(tokenStore.pending(REQUEST.userId(), ForcedCredits.MAX_TOKENS)).isEmpty();
  }

  /**
   * Issued downstream but not recorded in the book: nothing undoes it any more and the reward is
   * owed, so its token copy is kept then, for the statement (and, for cash, a withdrawal's forced
   * credit) to find, as an asynchronous send's is.
   */
  @Test
  void aSyncSendIssuedButNotRecorded_keepsItsTokenCopy() {
    Issuer issuing = (reward, type) -> new Issuer.Issue.Issued();
    var recorded = new java.util.concurrent.ConcurrentHashMap<String, RewardRecord>();
    RewardBook unrecorded =
        recordingBook(
            recorded,
            call ->
                call.equals("recordIssued")
                    ? new Unavailable("postgres", "connection refused", null)
                    : null);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> sender(issuing, unrecorded, Clock.systemUTC(), (t, p) -> 0).sendSync(REQUEST))
        .isInstanceOf(RewardService.IssuedUnrecorded.class);

    assertThat(tokenStore.pending(REQUEST.userId(), ForcedCredits.MAX_TOKENS)).hasSize(1);
    assertThat(budget.trades).as("kept for a replay to settle").containsKey("t1");
  }

  /**
   * An asynchronous send reserves, then Redis drops the connection: its claim fails, and so does
   * the release that would undo the reservation. The caller retries the same request, which finds
   * the reservation and is answered ACCEPTED, "on a queue": the replay must put it there, since the
   * first send never did.
   */
  @Test
  void anAsyncSendStoppedBeforeItsEventWasQueued_isQueuedByItsReplay() {
    var sender =
        asyncSender(
            failingOnce(RewardBudget.class, budget, "release"),
            failingOnce(TradeClaims.class, claims, "claim"));

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.send(REQUEST))
        .isInstanceOf(Unavailable.class);
    assertThat(queued).as("the first send stopped before its queue").isEmpty();

    assertThat(sender.send(REQUEST)).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1");
    assertThat(tokenStore.holds(queued.getFirst())).as("its token copy").isTrue();

    // Until the book has it, a replay cannot tell a queued event from one a dead process never
    // sent: it sends again, and crediting by tradeNo absorbs the copy.
    assertThat(sender.send(REQUEST)).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1", "t1");
  }

  /**
   * The first send's claim hangs (a Redis failover, say) while the caller's retry replays: the
   * retry claims, queues the event and answers ACCEPTED. The first send's claim then fails; taking
   * its reservation back would leave the queued event to be credited on a budget that no longer
   * counts it, and the budget would accept more than its escrow can pay.
   */
  @Test
  void anAsyncSendWhoseClaimFailsAfterAReplayWasAccepted_leavesTheReservationToTheReplay() {
    var retry = new AtomicReference<SendOutcome>();
    RewardSender sender = senderWhoseFirstClaimFails(self -> retry.set(self.send(REQUEST)));

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.send(REQUEST))
        .isInstanceOf(Unavailable.class);

    assertThat(retry.get()).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1");
    assertThat(budget.trades).as("the replay's event is covered").containsKey("t1");
    assertThat(tokenStore.holds(queued.getFirst())).as("its token copy").isTrue();
  }

  /**
   * The retry fails too (its claim meets the same outage): nothing is queued and both callers are
   * told to try again. The first send cannot tell whether the replay queued the event, so the
   * reservation stays, held for nothing until the next retry queues the event on it; never spent
   * without one.
   */
  @Test
  void anAsyncSendAndItsReplayBothFailing_leaveTheReservationToTheNextRetry() {
    var retry = new AtomicReference<Throwable>();
    RewardSender sender =
        senderWhoseFirstClaimFails(
            self -> {
              claimsDown.set(true);
              try {
                self.send(REQUEST);
              } catch (Unavailable e) {
                retry.set(e);
              } finally {
                claimsDown.set(false);
              }
            });

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.send(REQUEST))
        .isInstanceOf(Unavailable.class);
    assertThat(retry.get()).isInstanceOf(Unavailable.class);
    assertThat(queued).isEmpty();
    assertThat(budget.trades).as("held for the next retry").containsKey("t1");

    assertThat(sender.send(REQUEST)).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1");
    assertThat(budget.trades).containsKey("t1");
  }

  private final AtomicBoolean claimsDown = new AtomicBoolean();

  /**
   * A sender whose first claim runs {@code meanwhile} (a retry, given this very sender) and then
   * fails as a timed-out Redis command; later claims fail while {@link #claimsDown} is set.
   */
  private RewardSender senderWhoseFirstClaimFails(Consumer<RewardSender> meanwhile) {
    var self = new AtomicReference<RewardSender>();
    TradeClaims claimHangingThenFailing =
        new TradeClaims() {
          private boolean first = true;

          @Override
          public Claim claim(String tradeNo, String campaignId, String digest, boolean keep) {
            if (first) {
              first = false;
              meanwhile.accept(self.get());
              throw new Unavailable("redis", "command timed out", null);
            }
            if (claimsDown.get()) {
              throw new Unavailable("redis", "command timed out", null);
            }
            return claims.claim(tradeNo, campaignId, digest, keep);
          }

          @Override
          public Optional<Claim> conflictOf(String tradeNo, String campaignId, String digest) {
            return claims.conflictOf(tradeNo, campaignId, digest);
          }
        };
    self.set(asyncSender(budget, claimHangingThenFailing));
    return self.get();
  }

  /** A sender of asynchronous rewards on these budget keys and claims: it issues nothing itself. */
  private RewardSender asyncSender(RewardBudget keys, TradeClaims tradeClaims) {
    return RewardDoubles.asyncSender(
        RewardDoubles.typesOf(TEA),
        keys,
        FundedBudgets.NONE,
        tradeClaims,
        tokenStore,
        recordingQueues(queued),
        book,
        Clock.systemUTC());
  }

  /** {@code target}, whose first call of {@code method} fails as Redis dropping the connection. */
  @SuppressWarnings("unchecked")
  private static <T> T failingOnce(Class<T> type, T target, String method) {
    var failed = new java.util.concurrent.atomic.AtomicBoolean();
    return (T)
        java.lang.reflect.Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, called, args) -> {
              if (called.getName().equals(method) && failed.compareAndSet(false, true)) {
                throw new Unavailable("redis", "connection reset", null);
              }
              try {
                return called.invoke(target, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static RewardQueues recordingQueues(List<Reward> queued) {
    return RewardDoubles.queuesOn(
        RewardDoubles.producer(
            "memory",
            (reward, attempt) -> {
              queued.add(reward);
              return CompletableFuture.completedFuture(null);
            }));
  }
}
