package hongbao.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on the loopback address in front of a dependency. Frozen, it keeps every connection
 * open and forwards nothing, in either direction: what a dropped route or a paused VM looks like
 * from the client, which neither gets an answer nor learns that none will come. Thawed, it forwards
 * what it held back. It can also lose one reply on its way back ({@link #dropNextReply}), or the
 * reply to one request it recognises ({@link #dropReplyTo}).
 */
public final class FreezableProxy implements AutoCloseable {

  private static final int BUFFER_BYTES = 16 * 1024;

  private final ServerSocket listener;
  private final InetSocketAddress upstream;
  private final Queue<Socket> sockets = new ConcurrentLinkedQueue<>();
  private volatile boolean frozen;
  private final AtomicInteger repliesToDrop = new AtomicInteger();
  private final AtomicReference<byte[]> dropAfter = new AtomicReference<>();
  private volatile boolean closed;

  private FreezableProxy(ServerSocket listener, InetSocketAddress upstream) {
    this.listener = listener;
    this.upstream = upstream;
  }

  public static FreezableProxy to(String host, int port) {
    try {
      var listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      var proxy = new FreezableProxy(listener, new InetSocketAddress(host, port));
      Thread.ofVirtual().name("proxy-accept-" + port).start(proxy::accept);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("starting a proxy to " + host + ":" + port, e);
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  public void freeze() {
    frozen = true;
  }

  public void thaw() {
    frozen = false;
  }

  /**
   * The next answer that comes back from upstream is thrown away and its connection cut, both ways:
   * the request was served (whatever it did is done), and the client sees the connection drop
   * without a reply, as when a network fails on the way back.
   */
  public void dropNextReply() {
    repliesToDrop.incrementAndGet();
  }

  /**
   * As {@link #dropNextReply}, for the reply to the next request whose bytes contain {@code
   * marker}: the request reaches upstream and is served, and the next reply on its connection is
   * lost with that connection (with the replies to anything sent on it before, still unanswered).
   * Other connections are left alone. {@code marker} must arrive in one read, as a short token (a
   * script's digest, say) does.
   */
  public void dropReplyTo(String marker) {
    dropAfter.set(marker.getBytes(StandardCharsets.US_ASCII));
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket();
        server.connect(upstream, 5_000);
        sockets.add(client);
        sockets.add(server);
        // Set by a request carrying the marker: the next reply on this connection is lost.
        var marked = new AtomicBoolean();
        Thread.ofVirtual().start(() -> pump(client, server, false, marked));
        Thread.ofVirtual().start(() -> pump(server, client, true, marked));
      } catch (IOException e) {
        if (!closed) {
          System.err.println("proxy to " + upstream + ": " + e);
        }
      }
    }
  }

  private void pump(Socket from, Socket to, boolean replies, AtomicBoolean marked) {
    byte[] buffer = new byte[BUFFER_BYTES];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        while (frozen && !closed) {
          Thread.sleep(10);
        }
        if (replies && (marked.get() || repliesToDrop.getAndUpdate(n -> Math.max(0, n - 1)) > 0)) {
          return; // the finally block cuts the connection both ways
        }
        byte[] marker = dropAfter.get();
        // Armed before the request goes on, so its reply cannot pass first.
        if (!replies && marker != null && contains(buffer, read, marker)) {
          if (dropAfter.compareAndSet(marker, null)) {
            marked.set(true);
          }
        }
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException e) {
      // One side closed; closing both below ends the other pump too.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static boolean contains(byte[] buffer, int length, byte[] marker) {
    outer:
    for (int start = 0; start + marker.length <= length; start++) {
      for (int i = 0; i < marker.length; i++) {
        if (buffer[start + i] != marker[i]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already gone
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException e) {
      // already closed
    }
    sockets.forEach(FreezableProxy::closeQuietly);
  }
}
