package hongbao.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.List;

/**
 * Fails the commands a lost connection leaves unanswered, so that Lettuce does not send them again
 * on the next one. Redis may have run them: a connection can drop after a command arrived and
 * before its reply left. Lettuce's default is to deliver at least once: it puts them back in its
 * queue and writes them first on reconnecting, where a script that moves money runs a second time
 * (a budget grant raising a key's allowance twice, so reservations past the budget; a rain draw
 * taking a second prize). Failed here, each caller sees an outage, as for a reply that timed out,
 * and acts on what it knows. Commands issued while the connection is down were never sent: they
 * still go once it is back.
 *
 * <p>It sits at the head of the pipeline, so it sees the connection go before Lettuce's {@link
 * CommandHandler} moves its unanswered commands to the queue of the next connection, which skips
 * every command already completed. It costs the replies nothing: Netty passes every event this
 * handler does not override (reads among them) straight by it.
 */
final class SentOnce extends ChannelInboundHandlerAdapter {

  private static final System.Logger LOG = System.getLogger(SentOnce.class.getName());

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    try {
      failUnanswered(ctx);
    } finally {
      // Always on to Lettuce's handlers, or the connection would never be made again.
      super.channelInactive(ctx);
    }
  }

  private static void failUnanswered(ChannelHandlerContext ctx) {
    CommandHandler commands = ctx.pipeline().get(CommandHandler.class);
    if (commands == null) {
      return;
    }
    // A copy: failing a command runs its callbacks, which may issue commands on this channel.
    List<RedisCommand<?, ?, ?>> unanswered = List.copyOf(commands.getStack());
    var lost =
        new RedisConnectionException(
            "connection lost before Redis answered; the command may have run and is not sent"
                + " again");
    for (RedisCommand<?, ?, ?> command : unanswered) {
      try {
        command.completeExceptionally(lost);
      } catch (RuntimeException e) {
        // A failing callback is its caller's; the other commands must still fail here.
        LOG.log(System.Logger.Level.WARNING, "a callback failed on a lost Redis command", e);
      }
    }
  }
}
