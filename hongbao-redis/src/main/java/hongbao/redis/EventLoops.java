package hongbao.redis;

import hongbao.core.Invariants;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The event loops of the HTTP server (its Netty group), which the Redis link runs its connections
 * on so that a request's command is written, and its reply read, on the thread serving the request.
 * The link does not own them: they are stopped with the HTTP server, after the link is closed.
 *
 * <p>A thread of these loops must never wait for a Redis reply: the reply can only be read by a
 * loop, possibly that very thread, which would then wait forever. {@link #refuseBlocking} makes
 * such a wait an invariant violation instead of a hang.
 *
 * <p>Immutable and thread-safe.
 */
public final class EventLoops {

  private final EventLoopGroup group;
  private final EventLoop[] loops;

  private EventLoops(EventLoopGroup group, EventLoop[] loops) {
    this.group = group;
    this.loops = loops;
  }

  /** The loops of {@code group} (for Vert.x: {@code vertx.nettyEventLoopGroup()}). */
  public static EventLoops of(EventLoopGroup group) {
    var loops = new ArrayList<EventLoop>();
    for (EventExecutor executor : group) {
      Invariants.check(
          executor instanceof EventLoop, "%s is not a Netty event loop", executor.getClass());
      loops.add((EventLoop) executor);
    }
    Invariants.check(!loops.isEmpty(), "an event loop group without loops");
    return new EventLoops(group, loops.toArray(EventLoop[]::new));
  }

  int size() {
    return loops.length;
  }

  EventLoop loop(int index) {
    return loops[index];
  }

  /** The index of the loop the calling thread runs, or -1 on any other thread. */
  int current() {
    for (int i = 0; i < loops.length; i++) {
      if (loops[i].inEventLoop()) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Fails loudly when the calling thread is one of these loops: {@code what} would block it,
   * waiting for a reply that only a loop can read.
   *
   * @throws Invariants.InvariantViolation on an event-loop thread
   */
  void refuseBlocking(String what) {
    if (current() >= 0) {
      throw new Invariants.InvariantViolation(
          what
              + " on event loop "
              + Thread.currentThread().getName()
              + ": it would wait for a reply that an event loop must read; go through a blocking"
              + " executor (virtual thread) or stay asynchronous");
    }
  }

  /** Hands Lettuce every loop: its connections are registered on them in turn. */
  EventLoopGroupProvider all() {
    return new Lent(group);
  }

  /** Hands Lettuce one loop only: every connection of the client, reconnects too, stays on it. */
  EventLoopGroupProvider only(int index) {
    return new Lent(loops[index]);
  }

  /**
   * Lends Lettuce a group it does not own: it allocates the same group whatever transport class it
   * asks for (Lettuce and Vert.x both use NIO unless a native transport is on the class path, which
   * this build has not), and its release and shutdown leave the loops running.
   */
  private record Lent(EventLoopGroup group) implements EventLoopGroupProvider {

    @Override
    @SuppressWarnings("unchecked") // Lettuce keeps the group as an EventLoopGroup only
    public <T extends EventLoopGroup> T allocate(Class<T> type) {
      return (T) group;
    }

    @Override
    public int threadPoolSize() {
      int size = 0;
      for (EventExecutor ignored : group) {
        size++;
      }
      return size;
    }

    @Override
    public Future<Boolean> release(
        EventExecutorGroup eventLoopGroup, long quietPeriod, long timeout, TimeUnit unit) {
      return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
    }

    @Override
    public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit timeUnit) {
      return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
    }
  }
}
