package org.jbeam.ddll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.bif.IoLists;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The erl_ddll BIFs (erts' erl_bif_ddll.c) over {@link DriverLoader}: try_load/3, try_unload/2,
 * loaded_drivers/0, info/2 and format_error_int/1. erl_ddll's Erlang half (load_driver/2,
 * unload_driver/1, info/1...) runs unchanged on top.
 *
 * <p>Loading is synchronous, so the answers are never "pending" for a load. A shared library jbeam
 * has no Java driver for cannot be loaded: {@code {error, no_driver_init}}, what erts says of a
 * library without a driver entry (jbeam runs no native driver code).
 */
public final class DdllBifs implements BifModule {
    private static final String M = "erl_ddll";
    private static final EAtom DRIVER_OPTIONS = EAtom.of("driver_options"), MONITOR = EAtom.of("monitor"),
            RELOAD = EAtom.of("reload"), KILL_PORTS = EAtom.of("kill_ports"), PENDING_DRIVER = EAtom.of("pending_driver"),
            PENDING = EAtom.of("pending"), OPEN_ERROR = EAtom.of("open_error");

    @Override
    public void register(BifTable t) {
        t.bif3(M, "try_load", DdllBifs::tryLoad);
        t.bif2(M, "try_unload", DdllBifs::tryUnload);
        t.bif0(M, "loaded_drivers", p -> {
            List<Term> l = new ArrayList<>();
            for (String s : DriverLoader.STATIC) l.add(IoLists.stringToCharlist(s));
            for (String s : p.vm.drivers.names()) l.add(IoLists.stringToCharlist(s));
            return ETuple.of(EAtom.OK, ECons.of(l));
        });
        t.bif2(M, "info", DdllBifs::info);
        t.bif1(M, "format_error_int", (p, code) -> {
            String s = errorString(code);
            if (s == null) throw badarg();
            return IoLists.stringToCharlist(s);
        });
    }

    /** erts' pick_list_or_atom: a driver name or path as a string or an atom, else null. */
    private static String name(Term t) {
        if (t instanceof EAtom a) return a.name;
        String s = IoLists.charlistToString(t);
        return s == null || s.isEmpty() ? null : s;
    }

    private static Term tryLoad(ErlProcess p, Term pathT, Term nameT, Term opts) {
        String path = name(pathT), name = name(nameT);
        if (path == null || name == null) throw badarg();
        boolean killPorts = false, monitor = false;
        Term l = opts;
        while (l instanceof ECons c) {
            if (!(c.head instanceof ETuple o) || o.arity() != 2) throw badarg();
            if (o.get(0) == DRIVER_OPTIONS) {
                Term d = o.get(1);
                while (d instanceof ECons dc) {
                    if (dc.head != KILL_PORTS) throw badarg();
                    killPorts = true;
                    d = dc.tail;
                }
                if (d != ENil.NIL) throw badarg();
            } else if (o.get(0) == MONITOR || o.get(0) == RELOAD) {
                if (o.get(1) != PENDING_DRIVER && o.get(1) != PENDING) throw badarg();
                monitor |= o.get(0) == MONITOR;
            } else {
                throw badarg();
            }
            l = c.tail;
        }
        if (l != ENil.NIL) throw badarg();
        if (DriverLoader.STATIC.contains(name)) return error(EAtom.of("linked_in_driver"));
        if (p.vm.drivers.get(name) == null) {
            String file = name.endsWith(".so") ? name : name + ".so";
            // erts' code for a library that is not there (the message it formats is dlerror's).
            if (!Files.isRegularFile(Path.of(path, file))) return error(ETuple.of(OPEN_ERROR, ESmall.of(-10)));
            if (!DriverLoader.known(name)) return error(EAtom.of("no_driver_init"));
        }
        String r = p.vm.drivers.load(p.pid, name, killPorts);
        return r == null ? error(EAtom.of("inconsistent")) : ETuple.of(EAtom.OK, EAtom.of(r));
    }

    private static Term tryUnload(ErlProcess p, Term nameT, Term opts) {
        String name = name(nameT);
        if (name == null) throw badarg();
        boolean killPorts = false, monitor = false;
        Term l = opts;
        while (l instanceof ECons c) {
            if (c.head == KILL_PORTS) killPorts = true;
            else if (c.head instanceof ETuple o && o.arity() == 2 && o.get(0) == MONITOR
                    && (o.get(1) == PENDING_DRIVER || o.get(1) == PENDING)) monitor = true;
            else throw badarg();
            l = c.tail;
        }
        if (l != ENil.NIL) throw badarg();
        if (DriverLoader.STATIC.contains(name)) return error(EAtom.of("linked_in_driver"));
        return switch (p.vm.drivers.unload(p.pid, name, killPorts)) {
            case NOT_LOADED -> error(EAtom.of("not_loaded"));
            case NOT_BY_THIS_PROCESS -> error(EAtom.of("not_loaded_by_this_process"));
            case PENDING_PROCESS -> ETuple.of(EAtom.OK, EAtom.of("pending_process"));
            case PENDING_DRIVER -> {
                if (!monitor) yield ETuple.of(EAtom.OK, PENDING_DRIVER);
                // The driver is gone already: the monitor fires at once, as erts' does once it unloads.
                ERef ref = p.vm.makeRef();
                p.vm.sendTo(p.pid, ETuple.of(EAtom.of("DOWN"), ref, EAtom.of("driver"), nameT, EAtom.of("unloaded")));
                yield ETuple.of(EAtom.OK, PENDING_DRIVER, ref);
            }
        };
    }

    private static Term info(ErlProcess p, Term nameT, Term item) {
        String name = name(nameT);
        if (name == null || !(item instanceof EAtom it)) throw badarg();
        if (DriverLoader.STATIC.contains(name)) {
            return switch (it.name) {
                case "linked_in_driver" -> EAtom.TRUE;
                case "permanent" -> EAtom.FALSE;
                case "processes", "driver_options", "port_count", "awaiting_load", "awaiting_unload" -> EAtom.of("linked_in_driver");
                default -> throw badarg();
            };
        }
        DriverLoader.Loaded l = p.vm.drivers.get(name);
        if (l == null) throw badarg();
        return switch (it.name) {
            case "processes" -> {
                List<Term> ps = new ArrayList<>();
                synchronized (p.vm.drivers) {
                    for (var e : l.users.entrySet()) ps.add(ETuple.of(e.getKey(), ESmall.of(e.getValue()))); // in load order
                }
                yield ECons.of(ps);
            }
            case "driver_options" -> l.killPorts ? ECons.of(KILL_PORTS) : ENil.NIL;
            case "port_count" -> ESmall.of(l.portCount());
            case "linked_in_driver", "permanent" -> EAtom.FALSE;
            case "awaiting_load", "awaiting_unload" -> ENil.NIL;
            default -> throw badarg();
        };
    }

    private static Term error(Term what) { return ETuple.of(EAtom.ERROR, what); }

    /** erts' erl_ddll BIFs raise a plain badarg (no error_info). */
    private static ErlangException badarg() {
        ErlangException e = ErlangException.badarg();
        e.errorInfo = ENil.NIL;
        return e;
    }

    /** erts' messages for the soft errors (erl_bif_ddll.c, erl_sys_ddll.c). */
    private static String errorString(Term code) {
        if (code instanceof ETuple t && t.arity() == 2 && t.get(0) == OPEN_ERROR && t.get(1) instanceof ESmall n)
            return n.value == -10 ? "cannot open shared object file: No such file or directory" : "Unknown dlload error";
        if (!(code instanceof EAtom a)) return null;
        return switch (a.name) {
            case "inconsistent" -> "Driver name and/or driver options are inconsistent with currently loaded driver";
            case "linked_in_driver" -> "Driver is statically linked and cannot be loaded/unloaded";
            case "permanent" -> "DDLL driver is permanent an cannot be unloaded/loaded";
            case "not_loaded" -> "DDLL driver is not loaded";
            case "not_loaded_by_this_process" -> "DDLL driver was not loaded by this process";
            case "not_pending" -> "DDLL load not pending for this driver name";
            case "already_loaded" -> "DDLL driver is already loaded successfully";
            case "pending_reload" -> "Driver reloading is already pending";
            case "pending_process" -> "Driver is loaded by others when attempting option {reload, pending_driver}";
            case "no_driver_init" -> "No driver init in dynamic library";
            case "driver_init_failed" -> "Driver init failed";
            case "bad_driver_name" -> "Bad driver name";
            case "driver_name_to_long" -> "Driver name to long";
            case "driver_incorrect_version" -> "Driver compiled with incorrect version of erl_driver.h";
            case "no_ddll_available" -> "DDLL functionality not available on this platform";
            case "unspecified_error" -> "Unspecified dynamic library error";
            case "symbol_not_found" -> "Symbol not found in dynamic library";
            default -> null;
        };
    }
}
