package hongbao.core.reward;

import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** Stand-ins the reward tests share. */
final class RewardDoubles {

  private RewardDoubles() {}

  /** A coupon type of the special queue: the sender tests' usual reward type. */
  static final RewardType TEA =
      new RewardType("TEA", RewardKind.COUPON, 10, 1, false, VirtualQueue.SPECIAL, "http://issuer");

  /** How a test's producer answers one send. */
  @FunctionalInterface
  interface Sending {
    CompletionStage<Void> send(Reward reward, int attempt);
  }

  /** A producer named {@code name} whose sends {@code sending} answers. */
  static RewardProducer producer(String name, Sending sending) {
    return new RewardProducer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public CompletionStage<Void> send(Reward reward, int attempt) {
        return sending.send(reward, attempt);
      }
    };
  }

  /**
   * A sender of asynchronous rewards of {@code types} over these doubles, every switch on and no
   * rate to wait for: it issues nothing itself (its issuer fails the test if called).
   */
  static RewardSender asyncSender(
      RewardTypes types,
      RewardBudget budget,
      FundedBudgets books,
      TradeClaims claims,
      TokenStore tokenStore,
      RewardQueues queues,
      RewardBook book,
      Clock clock) {
    return new RewardSender(
        types,
        new PlainTokens(),
        budget,
        books,
        claims,
        tokenStore,
        queues,
        new RewardService(
            book,
            (reward, type) -> {
              throw new AssertionError("an asynchronous send issues nothing");
            },
            tokenStore,
            RewardMetrics.NONE),
        book,
        new AlwaysOn(),
        (type, permits) -> 0,
        duration -> {},
        clock);
  }

  /** Every virtual queue on {@code producer}, as master and backup. */
  static RewardQueues queuesOn(RewardProducer producer) {
    return queuesOn(producer, producer, Clock.systemUTC());
  }

  /** Every virtual queue on {@code master} and {@code backup}, each user's events to the master. */
  static RewardQueues queuesOn(RewardProducer master, RewardProducer backup, Clock clock) {
    var queues = new ArrayList<FailoverQueue>();
    for (VirtualQueue name : VirtualQueue.values()) {
      queues.add(new FailoverQueue(name, master, backup, 100, clock, Runnable::run));
    }
    return new RewardQueues(queues, RewardMetrics.NONE);
  }

  /** A book that has seen nothing; anything but a lookup would be a wrong turn. */
  static RewardBook emptyBook() {
    return bookAnswering(Map.of());
  }

  /**
   * A book that has seen nothing, whose writes {@code answers} handles by method name (each given
   * the call's arguments); any other call would be a wrong turn.
   */
  static RewardBook bookAnswering(Map<String, Function<Object[], Object>> answers) {
    return (RewardBook)
        Proxy.newProxyInstance(
            RewardBook.class.getClassLoader(),
            new Class<?>[] {RewardBook.class},
            (proxy, method, args) -> {
              if (method.isDefault()) {
                return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
              }
              if (method.getName().equals("find")) {
                return Optional.empty();
              }
              Function<Object[], Object> answer = answers.get(method.getName());
              if (answer == null) {
                throw new AssertionError("unexpected " + method.getName());
              }
              return answer.apply(args);
            });
  }

  /** The types {@code defined}, fixed. */
  static RewardTypes typesOf(RewardType... defined) {
    List<RewardType> all = List.of(defined);
    return new RewardTypes() {
      @Override
      public Optional<RewardType> find(String type) {
        return all.stream().filter(t -> t.type().equals(type)).findFirst();
      }

      @Override
      public RewardType put(RewardType type) {
        throw new UnsupportedOperationException();
      }

      @Override
      public List<RewardType> all() {
        return all;
      }
    };
  }

  /** Trade claims in memory: tradeNo to campaign and digest, as trade_claim.lua keeps them. */
  static final class MemoryClaims implements TradeClaims {
    final Map<String, String[]> byTradeNo = new ConcurrentHashMap<>();

    @Override
    public synchronized Claim claim(
        String tradeNo, String campaignId, String digest, boolean keepDigest) {
      String[] held =
          byTradeNo.putIfAbsent(tradeNo, new String[] {campaignId, keepDigest ? digest : null});
      if (held == null) {
        return Claim.CLAIMED;
      }
      if (!held[0].equals(campaignId)) {
        return Claim.OTHER;
      }
      if (held[1] == null) {
        if (keepDigest) {
          held[1] = digest;
        }
        return Claim.HELD;
      }
      return held[1].equals(digest) ? Claim.HELD : Claim.ANOTHER_REQUEST;
    }

    @Override
    public Optional<Claim> conflictOf(String tradeNo, String campaignId, String digest) {
      String[] held = byTradeNo.get(tradeNo);
      if (held == null) {
        return Optional.empty();
      }
      if (!held[0].equals(campaignId)) {
        return Optional.of(Claim.OTHER);
      }
      return held[1] == null || held[1].equals(digest)
          ? Optional.empty()
          : Optional.of(Claim.ANOTHER_REQUEST);
    }

    /** The campaign holding {@code tradeNo}, for tests to look at. */
    Optional<String> holder(String tradeNo) {
      return Optional.ofNullable(byTradeNo.get(tradeNo)).map(held -> held[0]);
    }
  }

  /** A producer that takes events or fails on demand, and remembers what it took. */
  static final class FakeProducer implements RewardProducer {
    final String name;
    final List<String> taken = new ArrayList<>();
    final List<Integer> attempts = new ArrayList<>();
    boolean down;
    int refused;

    FakeProducer(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public CompletionStage<Void> send(Reward reward, int attempt) {
      if (down) {
        refused++;
        return CompletableFuture.failedFuture(new IllegalStateException(name + " is down"));
      }
      taken.add(reward.tradeNo());
      attempts.add(attempt);
      return CompletableFuture.completedFuture(null);
    }
  }

  /** Every switch on. */
  static final class AlwaysOn implements Switches {
    @Override
    public boolean enabled(Switch which) {
      return true;
    }

    @Override
    public Map<Switch, Boolean> set(Switch which, boolean enabled) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<Switch, Boolean> all() {
      return Map.of();
    }
  }

  /** A token store that keeps nothing. */
  static final class NoTokens implements TokenStore {
    @Override
    public void save(Reward reward, String token) {}

    @Override
    public boolean holds(Reward reward) {
      return false;
    }

    @Override
    public void delete(Reward reward) {}

    @Override
    public List<String> pending(String userId, int max) {
      return List.of();
    }
  }

  /** A failure stream nothing may enter. */
  static final class NoFailures implements FailureLog {
    @Override
    public void fail(Reward reward, String reason) {
      throw new AssertionError("failed: " + reason);
    }

    @Override
    public List<String> entries(int max) {
      return List.of();
    }

    @Override
    public List<String> tradeNos(int max) {
      return List.of();
    }

    @Override
    public List<Failure> failures(int max) {
      return List.of();
    }

    @Override
    public boolean forget(String id) {
      return false;
    }
  }

  /** budget_reserve.lua / budget_release.lua by tradeNo, without the allowance arithmetic. */
  static final class MemoryBudget implements RewardBudget {
    final Map<String, String[]> trades = new HashMap<>();
    final Set<String> replayed = new HashSet<>();
    final Set<String> unqueued = new HashSet<>();

    /** Runs once, right after the next release, outside the lock. */
    Runnable afterRelease = () -> {};

    /** Answers the next reservations give, before any is looked at (as a frozen key would). */
    final Deque<Reservation> answersFirst = new ArrayDeque<>();

    /** The versions {@link #open} was called with, and how often ended freezes were let go. */
    final List<Integer> opened = new ArrayList<>();

    int thawsOfEnded;

    /** What {@link #lapsed} reports for each campaign's single key. */
    String lapsedSeen = "1|an ended freeze";

    @Override
    public synchronized void open(String campaignId, Amount budget, int version) {
      opened.add(version);
    }

    @Override
    public Freeze freeze(String campaignId, Instant until, String token) {
      throw new UnsupportedOperationException("no edits here");
    }

    @Override
    public void thaw(String campaignId, String token) {
      throw new UnsupportedOperationException("no edits here");
    }

    @Override
    public synchronized void thawLapsed(String campaignId, Lapsed seen) {
      thawsOfEnded++;
    }

    @Override
    public synchronized Lapsed lapsed(String campaignId) {
      return new Lapsed(List.of(lapsedSeen));
    }

    @Override
    public synchronized Reservation reserve(
        Reward reward, Amount cost, String token, boolean sync) {
      if (!answersFirst.isEmpty()) {
        return answersFirst.poll();
      }
      String[] prior = trades.get(reward.tradeNo());
      if (prior != null) {
        if (!prior[0].equals(reward.digest())) {
          return new Reservation.Conflict();
        }
        if (prior[2].equals("S")) {
          return new Reservation.SyncReplay(prior[1], Instant.parse(prior[3]));
        }
        replayed.add(reward.tradeNo());
        return new Reservation.Replay(prior[1]);
      }
      trades.put(
          reward.tradeNo(),
          new String[] {reward.digest(), token, sync ? "S" : "A", reward.awardedAt().toString()});
      return new Reservation.Reserved();
    }

    @Override
    public void release(Reward reward) {
      synchronized (this) {
        trades.remove(reward.tradeNo());
        replayed.remove(reward.tradeNo());
      }
      Runnable after = afterRelease;
      afterRelease = () -> {};
      after.run();
    }

    @Override
    public synchronized boolean releaseUnlessReplayed(Reward reward) {
      if (replayed.contains(reward.tradeNo())) {
        return false;
      }
      trades.remove(reward.tradeNo());
      return true;
    }

    @Override
    public synchronized void markUnqueued(Reward reward) {
      unqueued.add(reward.tradeNo());
    }

    @Override
    public synchronized boolean takeOver(Reward reward, Instant acceptedBefore, Instant now) {
      String[] prior = trades.get(reward.tradeNo());
      if (prior == null
          || !prior[2].equals("S")
          || !Instant.parse(prior[3]).isBefore(acceptedBefore)) {
        return false;
      }
      prior[3] = now.toString();
      return true;
    }

    @Override
    public BudgetState state(String campaignId) {
      return null;
    }

    @Override
    public Map<String, Trade> trades(String campaignId) {
      return Map.of();
    }

    @Override
    public Map<String, Trade> trades(String campaignId, java.util.Collection<String> tradeNos) {
      return Map.of();
    }
  }

  static final class PlainTokens implements RewardTokens {
    @Override
    public String seal(Reward reward) {
      return reward.userId() + "~" + reward.tradeNo();
    }

    @Override
    public Optional<Reward> open(String token, String userId) {
      return Optional.empty();
    }

    @Override
    public Optional<Reward> openAny(String token) {
      return Optional.empty();
    }
  }

  static final class MemoryTokens implements TokenStore {
    private final Map<String, String> copies = Collections.synchronizedMap(new HashMap<>());

    @Override
    public void save(Reward reward, String token) {
      copies.put(reward.tradeNo(), token);
    }

    @Override
    public boolean holds(Reward reward) {
      return copies.containsKey(reward.tradeNo());
    }

    @Override
    public void delete(Reward reward) {
      copies.remove(reward.tradeNo());
    }

    @Override
    public List<String> pending(String userId, int max) {
      return List.copyOf(copies.values());
    }
  }
}
