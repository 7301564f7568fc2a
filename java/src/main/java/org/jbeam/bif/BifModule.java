package org.jbeam.bif;

/** A group of BIFs for one Erlang module; declares them into the table. */
public interface BifModule {
    void register(BifTable t);
}
