"""Drives an interactive `erl` (or bin/jbeam) on a pseudo-terminal: waits for each expected
text, sends keystrokes (arrows, backspace, tab completion, history), then quits; prints all
terminal output. TtyShellTest runs it on erl and on jbeam and compares the bytes.
Usage: python3 shell_keys.py COMMAND [ARGS...]"""
import os, pty, sys, time, select
def run(cmd, steps):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ['TERM'] = 'xterm'
        os.environ['LANG'] = 'C.UTF-8'
        os.execvp(cmd[0], cmd)
    out = b''
    def read_until(pat, timeout=60):
        nonlocal out
        end = time.time() + timeout
        while time.time() < end:
            if pat in out: return True
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try: data = os.read(fd, 4096)
                except OSError: return False
                if not data: return False
                out += data
        return False
    for wait, send in steps:
        ok = read_until(wait, 20)
        sys.stderr.write("step %r ok=%s\n" % (wait, ok)); sys.stderr.flush()
        if not ok: out += b"<<timeout waiting for %r>>" % wait; break
        time.sleep(0.3)
        os.write(fd, send)
    end = time.time() + 8
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try: data = os.read(fd, 4096)
            except OSError: break
            if not data: break
            out += data
    try:
        os.kill(pid, 9)
    except OSError: pass
    os.waitpid(pid, 0)
    return out
cmd = sys.argv[1:]
steps = [(b'1> ', b'1 + 2.\r'), (b'2> ', b'lists:seq(1,3\x1b[D\x1b[D\x1b[C\x1b[C\x1b[C).\r'), (b'3> ', b'X = abcdef\x7f\x7fxy.\r'), (b'4> ', b'\x1b[A'), (b'X = abcdxy.', b'\r'), (b'5> ', b'io:format("~ts~n", ["\xc3\xa5\xc3\xa4"]).\r'), (b'6> ', b'\tlists:rev\t'), (b'reverse(', b'[a,b]).\r'), (b'7> ', b'q().\r')]
sys.stdout.buffer.write(run(cmd, steps))
